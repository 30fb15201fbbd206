#!/bin/bash
# A stand-in agent for the end-to-end scripts, named like a real one by the link that runs it
# (bin/claude -> standin). It paints the real capture whose path is in $WORK/<name>.screen (title
# from its '# title:' line, body without the two header lines), logs every byte it receives to
# $WORK/<name>.keys, and echoes what it is sent at the bottom.
#
# A key that picks (Enter, C-d, a lone Escape, y, p) moves it to the capture named in
# $WORK/<name>.next, as the agent would go on to its next screen. Files in $WORK change how it
# takes keys, each while it is there:
#   <name>.sticky  the next Enter is swallowed (once), like a paste that sits unsent
#   <name>.stuck   every Enter is swallowed
#   <name>.moved   an Up or Down paints this capture: the cursor moved
#   <name>.field   a Tab, or a digit outside a paste, paints this capture: a field opened
#   <name>.noecho  typed text is logged but never drawn, like a field that drops it
#   <name>.deaf    a key that comes within 0.4s of a screen's paint is dropped (logged to
#                  <name>.dropped), as Claude Code 2.1.332 drops a key that comes while it draws
#                  its dialog
name=$(basename "$0")
# Raw once, reading with dd: bash's read -n switches the terminal's modes around every byte, and
# can lose what arrives meanwhile. min 0 time 1: a read gives up after 0.1s. A read takes what is
# waiting (a paste and its Enter come as one), so a loaded machine does not spread a prompt over a
# fork per byte, slower than an agent takes it.
# Killed, it gives the terminal back as it found it, as an agent does.
saved=$(stty -g)
trap 'stty "$saved"; exit 143' TERM
stty -echo -icanon -isig -icrnl -inlcr -ixon min 0 time 1
printf '\033[?2004h'
last= painted=0
# A frame goes out in one write, drawn over the last line by line as an agent redraws: a look
# mid-paint reads lines of the old frame and the new, never a cleared screen.
paint() {
	{
		printf '\033]2;%s\033\\\033[H' "$(sed -n '1s/^# title: //p' "$1")"
		sed '1,2{/^# /d}' "$1" | awk 'NR>1{printf "\r\n"} {printf "\033[2K%s", $0}'
		printf '\033[J'
	} >"$WORK/$name.frame"
	cat "$WORK/$name.frame"
	painted=${EPOCHREALTIME/./}
}
advance() {
	if [ -f "$WORK/$name.next" ]; then
		mv "$WORK/$name.next" "$WORK/$name.screen"
	fi
	last=
}
show() { # c: a typed character
	[ -f "$WORK/$name.noecho" ] || printf '%s' "$1"
}
esc= paste= quiet=
while :; do
	chunk=$(dd bs=4096 count=1 2>/dev/null; printf .)
	chunk=${chunk%.}
	if [ -z "$chunk" ]; then
		# A lone Escape: nothing after it for two reads (0.2s), as a loaded machine may hand the
		# rest of a sequence over late. Inside a paste an Escape always opens the paste's end.
		if [ "$esc" = 1 ] && [ -z "$paste" ]; then
			if [ -n "$quiet" ]; then esc= quiet=; advance; else quiet=1; fi
		fi
		s=$(cat "$WORK/$name.screen" 2>/dev/null)
		if [ "$s" != "$last" ]; then
			paint "$s"
			last=$s
		fi
		continue
	fi
	quiet=
	if [ -f "$WORK/$name.deaf" ] && [ $((${EPOCHREALTIME/./} - painted)) -lt 400000 ]; then
		printf '%s' "$chunk" >>"$WORK/$name.dropped"
		continue
	fi
	printf '%s' "$chunk" >>"$WORK/$name.keys"
	for ((i = 0; i < ${#chunk}; i++)); do
		c=${chunk:i:1}
		if [ -n "$esc" ]; then
			esc="$esc$c"
			case $esc in
			1\[) continue ;;
			1\[200~) esc= paste=1 ;;
			1\[201~) esc= paste= ;;
			1\[[AB]) esc=; [ -f "$WORK/$name.moved" ] && mv "$WORK/$name.moved" "$WORK/$name.screen" ;;
			1\[*[A-Za-z~]) esc= ;;
			1\[*) ;;
			*) esc= ;;
			esac
			continue
		fi
		case $c in
		$'\033') esc=1 ;;
		$'\r' | $'\n') # Enter; a terminal may hand it over as a newline
			if [ -f "$WORK/$name.sticky" ]; then rm -f "$WORK/$name.sticky"; continue; fi
			[ -f "$WORK/$name.stuck" ] && continue
			advance ;;
		$'\004') advance ;;
		$'\t') [ -f "$WORK/$name.field" ] && mv "$WORK/$name.field" "$WORK/$name.screen" ;;
		[1-9]) if [ -z "$paste" ] && [ -f "$WORK/$name.field" ]; then mv "$WORK/$name.field" "$WORK/$name.screen"; else show "$c"; fi ;;
		y | p) if [ -n "$paste" ]; then show "$c"; else advance; fi ;;
		*) show "$c" ;;
		esac
	done
done
