package prompt

import (
	"strings"
	"unicode"
)

// Tail is the end of a prompt's text that an agent's input line shows: its last non-blank line,
// cut to what a narrow input line holds of it.
func Tail(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if r := []rune(l); len(r) > 24 {
		l = string(r[len(r)-24:])
	}
	return l
}

// StillTyped says whether a prompt typed into an agent's input still sits there: typed is the
// screen that showed the text in the input before Enter, now the screen since. It sits while
// the input line (the last line that shows the text's tail) and everything under it are as
// they were; a taken prompt empties the input or moves it, and an agent that went to work draws
// its spinner there. Digits are no change (a clock or a percentage in a footer ticks). The
// text's words in the agent's history above its input are no sign it sits. A typed screen that
// never showed the text sits only while the screen is the same.
func StillTyped(typed, now, text string) bool {
	a, b := screenRows(typed), screenRows(now)
	tail := Tail(text)
	at := -1
	for i := len(a) - 1; i >= 0 && tail != ""; i-- {
		if strings.Contains(a[i], tail) {
			at = i
			break
		}
	}
	if at < 0 {
		return typed == now
	}
	if len(b) != len(a) {
		return false
	}
	for i := at; i < len(a); i++ {
		if noDigits(a[i]) != noDigits(b[i]) {
			return false
		}
	}
	return true
}

// screenRows are a capture's lines, trailing blanks off.
func screenRows(screen string) []string {
	rows := strings.Split(strings.TrimRight(strings.ReplaceAll(screen, "\r", ""), "\n "), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return rows
}

func noDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '#'
		}
		return r
	}, s)
}
