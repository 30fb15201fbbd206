package rd
import ("testing";"os";"encoding/json";"github.com/taw-tmux/taw/helper/prompt")
func TestRead(t *testing.T){ b,_:=os.ReadFile(os.Getenv("F")); p:=prompt.Read(os.Getenv("A"), string(b)); j,_:=json.Marshal(p); t.Logf("%s selected=%d", j, func()int{if p==nil{return -1};return p.Selected}()) }
