package wire

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestArrayHead(t *testing.T) {
	for _, tc := range []struct {
		raw        string
		n          int
		want       []string
		more, isOK bool
	}{
		{`[]`, 3, []string{}, false, true},
		{` [ ] `, 3, []string{}, false, true},
		{`[1,2,3]`, 3, []string{"1", "2", "3"}, false, true},
		{`[1,2,3]`, 2, []string{"1", "2"}, true, true},
		{`[ {"a":[1,{"b":"]"}]} , "x\"],y" ,null,true,-1.5e3 ]`, 9,
			[]string{`{"a":[1,{"b":"]"}]}`, `"x\"],y"`, "null", "true", "-1.5e3"}, false, true},
		{`[[],[[]],{}]`, 5, []string{"[]", "[[]]", "{}"}, false, true},
		{`{"a":1}`, 3, nil, false, false},
		{`"[1]"`, 3, nil, false, false},
		{`null`, 3, nil, false, false},
		{``, 3, nil, false, false},
	} {
		items, more, ok := ArrayHead(json.RawMessage(tc.raw), tc.n)
		var got []string
		if items != nil {
			got = []string{}
		}
		for _, it := range items {
			got = append(got, string(it))
		}
		if ok != tc.isOK || more != tc.more || !slices.Equal(got, tc.want) {
			t.Errorf("ArrayHead(%s, %d) = %q more %v ok %v; want %q more %v ok %v", tc.raw, tc.n, got, more, ok, tc.want, tc.more, tc.isOK)
		}
	}
}

// TestArrayHeadAgreesWithTheDecoder: on valid arrays, the elements split
// are those encoding/json decodes.
func TestArrayHeadAgreesWithTheDecoder(t *testing.T) {
	for _, raw := range []string{
		`[{"address":"W1","amount":"0.1"},{"address":"W2"}]`,
		`[ "a" , "b\\" , "\u005d" ]`,
		`[0, -0, 1e5, {"x": [ {"y": "}"} ]}, [ ], "" ]`,
	} {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		got, more, ok := ArrayHead(json.RawMessage(raw), 100)
		if !ok || more || len(got) != len(want) {
			t.Fatalf("%s: %d items more %v ok %v, want %d", raw, len(got), more, ok, len(want))
		}
		for i := range want {
			if strings.TrimSpace(string(got[i])) != string(want[i]) {
				t.Errorf("%s: item %d %s, want %s", raw, i, got[i], want[i])
			}
		}
	}
}
