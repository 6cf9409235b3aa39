package main

import (
	"encoding/json"
	"testing"
	"time"
)

func TestClientJobRunsItsScenario(t *testing.T) {
	fl, err := startFloor([]byte(`{"success":true,"data":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer fl.close()
	body := []byte(`{"address":"M","side":"Buy","amount":"0.1","slippage":5,"wallets":[{"address":"W"}]}`)
	for _, name := range []string{"floor-seq", "floor-post", "floor-get", "floor-seq-end"} {
		job := clientJob{Scenario: name, Dur: 100 * time.Millisecond, Floor: fl.url, Beside: fl.url, SolBuys: [][]byte{body}}
		// As the parent sends it and reads it back.
		b, err := json.Marshal(job)
		if err != nil {
			t.Fatal(err)
		}
		var got clientJob
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		r, err := runJob(got)
		if err != nil {
			t.Fatal(err)
		}
		if b, err = json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		var back clientResult
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if len(back.Lat) == 0 || back.Errors != 0 || back.Statuses[200] != len(back.Lat) || back.Elapsed <= 0 {
			t.Errorf("%s: %d answers, %d errors (%s), statuses %v, elapsed %v", name, len(back.Lat), back.Errors, back.FirstErr, back.Statuses, back.Elapsed)
		}
	}
	if _, err := runJob(clientJob{Scenario: "no-such"}); err == nil {
		t.Error("an unknown scenario ran")
	}
	for _, sc := range append(append([]scenario{}, floorScenarios...), scenarios...) {
		if _, ok := scenarioNamed(sc.name); !ok {
			t.Errorf("scenario %s not found by name", sc.name)
		}
	}
}
