package metrics

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// The alert rules, their unit tests and the dashboard live in configs/ at
// the module root; these tests keep their expressions on the metrics this
// package defines, so that a renamed metric or label cannot leave a rule or
// a panel silently empty.

const configsDir = "../../configs"

// knownValues are the label values the rules and panels may name, for the
// labels whose values this package fixes.
var knownValues = map[string][]string{
	// deploy_land is the broadcaster's time to land every bundle of a
	// launch.
	"stage": {StageCharge, StageQueueWait, StageSign, StageRecord, StageBatchWait, StageBroadcastRPC, StageRecordTrade,
		StageEndToEnd, StageConfirmation, StageDeployLand, StageDeployEndToEnd},
	"sender": {SenderRPC, SenderRelay},
	// side is a swap's side, or deploy for a launch.
	"side": {string(wire.Buy), string(wire.Sell), wire.KindDeploy},
	// outcome is also a label of tradeapi_orders_total, whose values are
	// error codes; it is checked only on tradeapi_transactions_total.
	"tx_outcome": {TxSent, TxSendFailed, TxConfirmed, TxFailed, TxDropped, TxExpired},
	"store":      {StoreBudget, StoreIdempotency, StoreOrders, StoreTrades},
	// state is a label of tradeapi_orders_final_total only.
	"state":           {OrderConfirmed, OrderFailed, OrderExpired},
	"webhook_outcome": {WebhookDelivered, WebhookRetry, WebhookRejected, WebhookGaveUp},
	"stream":          reportedStreamNames(),
	// reason is a label of tradeapi_exits_deferred_total, and of
	// tradeapi_messages_dropped_total (dropped_reason).
	"reason":         {ExitDeferredBudget, ExitDeferredResumed, ExitDeferredHandover, ExitDeferredVenuePaused, ExitDeferredStopped},
	"dropped_reason": {MessageUndecodable, MessageMisaddressed},
}

// reportedStreamNames are the streams the JetStream collector reports.
func reportedStreamNames() []string {
	var out []string
	for _, s := range reportedStreams {
		out = append(out, s.name)
	}
	return out
}

// Labels that Prometheus adds at scrape time or that the scrape config sets.
var targetLabels = []string{"job", "instance", "role"}

type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []rule `yaml:"rules"`
	} `yaml:"groups"`
}

type rule struct {
	Alert       string            `yaml:"alert"`
	Record      string            `yaml:"record"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// alertRules reads every rule of configs/prometheus/*.rules.yml.
func alertRules(t *testing.T) []rule {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(configsDir, "prometheus", "*.rules.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule files in %s/prometheus (%v)", configsDir, err)
	}
	var out []rule
	for _, file := range files {
		var rf ruleFile
		readYAML(t, file, &rf)
		for _, g := range rf.Groups {
			out = append(out, g.Rules...)
		}
	}
	return out
}

func TestAlertRulesUseDefinedMetrics(t *testing.T) {
	fams := allFamilies(t)
	alerts := 0
	for _, r := range alertRules(t) {
		t.Run(r.Alert+r.Record, func(t *testing.T) {
			checkExpr(t, fams, r.Expr)
			if r.Alert == "" {
				return
			}
			alerts++
			if r.For == "" {
				t.Error("no for: an alert must hold before it fires")
			}
			if r.Labels["severity"] == "" {
				t.Error("no severity label")
			}
			if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Error("summary and description annotations are required")
			}
		})
	}
	if alerts < 5 {
		t.Fatalf("%d alerts, want at least the five the service needs", alerts)
	}
}

// TestRuleTestSeriesUseDefinedMetrics keeps the promtool unit tests on
// series the service really exposes.
func TestRuleTestSeriesUseDefinedMetrics(t *testing.T) {
	fams := allFamilies(t)
	files, err := filepath.Glob(filepath.Join(configsDir, "prometheus", "tests", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule tests in %s/prometheus/tests (%v)", configsDir, err)
	}
	n := 0
	for _, file := range files {
		var tf struct {
			Tests []struct {
				Name        string `yaml:"name"`
				InputSeries []struct {
					Series string `yaml:"series"`
				} `yaml:"input_series"`
			} `yaml:"tests"`
		}
		readYAML(t, file, &tf)
		for _, tc := range tf.Tests {
			for _, s := range tc.InputSeries {
				n++
				checkExpr(t, fams, s.Series)
			}
		}
	}
	if n == 0 {
		t.Fatal("no input series found")
	}
}

func TestDashboard(t *testing.T) {
	fams := allFamilies(t)
	b, err := os.ReadFile(filepath.Join(configsDir, "grafana", "dashboards", "tradeapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID        string            `json:"uid"`
		Title      string            `json:"title"`
		Panels     []json.RawMessage `json:"panels"`
		Templating struct {
			List []struct {
				Name  string          `json:"name"`
				Type  string          `json:"type"`
				Query json.RawMessage `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("dashboard is not valid JSON: %v", err)
	}
	if d.UID == "" || d.Title == "" {
		t.Fatal("dashboard needs a uid and a title")
	}
	vars := map[string]bool{}
	for _, v := range d.Templating.List {
		vars[v.Name] = true
		if v.Name == "stage" {
			// The stage rows repeat over every stage the service
			// observes, and no other.
			var q string
			if err := json.Unmarshal(v.Query, &q); err != nil {
				t.Fatalf("variable stage: %v", err)
			}
			got := strings.Split(q, ",")
			slices.Sort(got)
			want := slices.Sorted(slices.Values(knownValues["stage"]))
			if !slices.Equal(got, want) {
				t.Errorf("variable stage lists %v, want %v", got, want)
			}
		}
		if v.Name == "chain" && strings.Contains(string(v.Query), "tradeapi_stage_duration_seconds") {
			t.Errorf("variable chain reads the stages' chain label, which also holds the families sol and evm")
		}
		if v.Type != "query" {
			continue
		}
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(v.Query, &q); err != nil {
			t.Fatalf("variable %s: %v", v.Name, err)
		}
		m := regexp.MustCompile(`^label_values\((\w+),\s*(\w+)\)$`).FindStringSubmatch(q.Query)
		if m == nil {
			t.Errorf("variable %s: query %q is not label_values(metric, label)", v.Name, q.Query)
			continue
		}
		if fi, ok := family(fams, m[1]); !ok || !fi.labels[m[2]] {
			t.Errorf("variable %s: %s has no label %s", v.Name, m[1], m[2])
		}
	}
	if !vars["datasource"] {
		t.Fatal("no datasource variable")
	}

	type panel struct {
		Type       string            `json:"type"`
		Title      string            `json:"title"`
		Repeat     string            `json:"repeat"`
		Datasource *json.RawMessage  `json:"datasource"`
		Panels     []json.RawMessage `json:"panels"`
		Targets    []struct {
			RefID        string          `json:"refId"`
			Expr         string          `json:"expr"`
			LegendFormat string          `json:"legendFormat"`
			Datasource   json.RawMessage `json:"datasource"`
		} `json:"targets"`
		FieldConfig fieldConfig `json:"fieldConfig"`
	}
	wantDS := `{"type":"prometheus","uid":"${datasource}"}`
	compact := func(r json.RawMessage) string {
		var v any
		_ = json.Unmarshal(r, &v)
		out, _ := json.Marshal(v)
		return string(out)
	}
	exprs, repeats := 0, map[string]bool{}
	var walk func([]json.RawMessage)
	walk = func(raws []json.RawMessage) {
		for _, raw := range raws {
			var p panel
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			if p.Repeat != "" {
				repeats[p.Repeat] = true
			}
			walk(p.Panels)
			if p.Type == "row" {
				continue
			}
			if p.Datasource == nil || compact(*p.Datasource) != wantDS {
				t.Errorf("panel %q: datasource must be the ${datasource} variable", p.Title)
			}
			if len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				exprs++
				if compact(tg.Datasource) != wantDS {
					t.Errorf("panel %q: a target's datasource must be the ${datasource} variable", p.Title)
				}
				t.Run(p.Title, func(t *testing.T) { checkExpr(t, fams, tg.Expr) })
				if err := p.FieldConfig.unitFits(tg.RefID, tg.Expr, tg.LegendFormat); err != nil {
					t.Errorf("panel %q, series %q: %v", p.Title, tg.LegendFormat, err)
				}
			}
		}
	}
	walk(d.Panels)
	if exprs == 0 {
		t.Fatal("no panel queries found")
	}
	// A row per pipeline stage and per chain.
	if !repeats["stage"] || !repeats["chain"] {
		t.Fatalf("rows repeat over %v, want stage and chain", repeats)
	}
}

// fieldConfig is what of a panel's field config sets its series' units.
type fieldConfig struct {
	Defaults struct {
		Unit string `json:"unit"`
	} `json:"defaults"`
	Overrides []struct {
		Matcher struct {
			ID      string `json:"id"`
			Options string `json:"options"`
		} `json:"matcher"`
		Properties []struct {
			ID    string `json:"id"`
			Value any    `json:"value"`
		} `json:"properties"`
	} `json:"overrides"`
}

// unitOf is the unit Grafana draws a series in: the panel's, or that of
// the last override that matches the series by its query's refId, its
// name, or a regular expression of its name, which Grafana anchors at
// both ends unless it is written /re/ (the legend stands for the name).
func (fc fieldConfig) unitOf(refID, legend string) (string, error) {
	unit := fc.Defaults.Unit
	for _, o := range fc.Overrides {
		var match bool
		switch opt := o.Matcher.Options; o.Matcher.ID {
		case "byFrameRefID":
			match = opt == refID
		case "byName":
			match = opt == legend
		case "byRegexp":
			pattern := "^" + opt + "$"
			if i := strings.LastIndexByte(opt, '/'); strings.HasPrefix(opt, "/") && i > 0 {
				pattern = opt[1:i]
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				return "", fmt.Errorf("override matcher %q: %v", opt, err)
			}
			match = re.MatchString(legend)
		}
		if !match {
			continue
		}
		for _, pr := range o.Properties {
			if u, ok := pr.Value.(string); ok && pr.ID == "unit" {
				unit = u
			}
		}
	}
	return unit, nil
}

// unitFits reports a series drawn in a unit that is not its own: a
// duration (a quantile of a seconds histogram, or a seconds value) in
// anything but seconds (milliseconds when the query multiplies by 1000),
// or a series reading no duration (a count of 12, a rate of a histogram's
// _count) in a time unit, which would show it as 12 s.
func (fc fieldConfig) unitFits(refID, expr, legend string) error {
	unit, err := fc.unitOf(refID, legend)
	if err != nil {
		return err
	}
	rest := strings.NewReplacer("_seconds_count", "", "_seconds_bucket", "").Replace(expr)
	duration := strings.Contains(expr, "histogram_quantile") && strings.Contains(expr, "_seconds_bucket") ||
		strings.Contains(rest, "_seconds")
	timeUnit := strings.HasPrefix(unit, "dt") || slices.Contains([]string{"ns", "µs", "ms", "s", "m", "h", "d"}, unit)
	switch {
	case duration && unit == "ms" && !strings.Contains(expr, "1000"):
		return fmt.Errorf("seconds drawn in ms")
	case duration && !timeUnit:
		return fmt.Errorf("a duration drawn in %q", unit)
	case !duration && timeUnit:
		return fmt.Errorf("a series reading no duration drawn in %q", unit)
	}
	return nil
}

// checkExpr checks every metric a PromQL expression selects: the name must
// be a family of the service (or a histogram's _bucket, _sum or _count, or
// up), each label matcher a label of it, and each value of a label this
// package fixes one of its values. Labels in by, without, on and ignoring
// must be labels of a metric the expression selects.
func checkExpr(t *testing.T, fams map[string]familyInfo, expr string) {
	t.Helper()
	for _, p := range exprProblems(fams, expr) {
		t.Error(p)
	}
}

// exprProblems returns what checkExpr reports about expr.
func exprProblems(fams map[string]familyInfo, expr string) (problems []string) {
	errorf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(expr) == "" {
		return []string{"empty expression"}
	}
	used := map[string]bool{}
	var grouping []string
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(expr, i)
		case isIdentStart(c) && (i == 0 || !isIdentChar(expr[i-1]) && expr[i-1] != '$'):
			j := i
			for j < len(expr) && isIdentChar(expr[j]) {
				j++
			}
			word := expr[i:j]
			k := j
			for k < len(expr) && expr[k] == ' ' {
				k++
			}
			switch {
			case slices.Contains([]string{"by", "without", "on", "ignoring", "group_left", "group_right"}, word) && k < len(expr) && expr[k] == '(':
				end := strings.IndexByte(expr[k:], ')')
				if end < 0 {
					errorf("unbalanced %s( in %q", word, expr)
					return problems
				}
				for _, l := range strings.Split(expr[k+1:k+end], ",") {
					if l = strings.TrimSpace(l); l != "" {
						grouping = append(grouping, l)
					}
				}
				j = k + end + 1
			case strings.HasPrefix(word, "tradeapi_") || word == "up":
				fi, ok := family(fams, word)
				if !ok {
					errorf("%s is not a metric of the service", word)
				}
				for l := range fi.labels {
					used[l] = true
				}
				if strings.HasSuffix(word, "_bucket") {
					used["le"] = true
				}
				if k < len(expr) && expr[k] == '{' {
					end, ps := matchers(word, fi, expr[k:])
					problems = append(problems, ps...)
					j = k + end
				}
			}
			i = j
		default:
			i++
		}
	}
	for _, l := range grouping {
		if !used[l] && !slices.Contains(targetLabels, l) {
			errorf("grouping label %q is not a label of the metrics in %q", l, expr)
		}
	}
	return problems
}

// matchers checks the label matchers of a selector starting at s[0] == '{'
// and returns the length of the selector and the problems found.
func matchers(metric string, fi familyInfo, s string) (int, []string) {
	var problems []string
	end := 1
	for end < len(s) && s[end] != '}' {
		if s[end] == '"' {
			end = skipString(s, end)
			continue
		}
		end++
	}
	re := regexp.MustCompile(`(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"`)
	for _, m := range re.FindAllStringSubmatch(s[1:end], -1) {
		label, op, value := m[1], m[2], m[3]
		if !fi.labels[label] && !slices.Contains(targetLabels, label) && !(label == "le" && strings.HasSuffix(metric, "_bucket")) {
			problems = append(problems, fmt.Sprintf("%s has no label %q", metric, label))
			continue
		}
		key := label
		if label == "reason" && strings.HasPrefix(metric, "tradeapi_messages_dropped_total") {
			key = "dropped_reason"
		}
		if label == "outcome" {
			switch {
			case strings.HasPrefix(metric, "tradeapi_transactions_total"):
				key = "tx_outcome"
			case strings.HasPrefix(metric, "tradeapi_webhook_deliveries_total"):
				key = "webhook_outcome"
			default:
				continue
			}
		}
		allowed, fixed := knownValues[key]
		if !fixed || strings.Contains(value, "$") || op == "!=" || op == "!~" {
			continue
		}
		for _, v := range strings.Split(strings.Trim(value, "()"), "|") {
			if !slices.Contains(allowed, v) {
				problems = append(problems, fmt.Sprintf("%s{%s%s%q}: %q is not one of %v", metric, label, op, value, v, allowed))
			}
		}
	}
	return end + 1, problems
}

func TestExprProblems(t *testing.T) {
	fams := allFamilies(t)
	for _, tc := range []struct {
		expr string
		want string // a substring of the one problem expected; "" for none
	}{
		{`sum by (chain, le) (rate(tradeapi_stage_duration_seconds_bucket{stage="end_to_end", chain=~"$chain"}[5m]))`, ""},
		{`max by (stream) (tradeapi_jetstream_up{job="tradeapi"}) == 0`, ""},
		{`sum(rate(tradeapi_transactions_total{outcome=~"confirmed|failed", sender="relay"}[5m]))`, ""},
		{`sum(rate(tradeapi_orders_total{outcome="TOKEN_NOT_FOUND"}[5m]))`, ""},
		{`sum(rate(tradeapi_orders_total{side="deploy", outcome=~"BROADCAST_FAILED|UPSTREAM_TIMEOUT"}[15m]))`, ""},
		{`histogram_quantile(0.99, sum by (le) (rate(tradeapi_stage_duration_seconds_bucket{stage="deploy_land", chain="solana"}[5m])))`, ""},
		{`sum by (chain, type) (rate(tradeapi_exits_fired_total[5m]))`, ""},
		{`rate(tradeapi_swaps_total[5m])`, "tradeapi_swaps_total is not a metric"},
		{`rate(tradeapi_stage_duration_seconds[5m])`, "tradeapi_stage_duration_seconds is not a metric"},
		{`rate(tradeapi_orders_total{wallet="x"}[5m])`, `has no label "wallet"`},
		{`rate(tradeapi_stage_duration_seconds_count{stage="signing"}[5m])`, `"signing" is not one of`},
		{`rate(tradeapi_transactions_total{outcome=~"sent|landed"}[5m])`, `"landed" is not one of`},
		{`rate(tradeapi_orders_total{side="launch"}[5m])`, `"launch" is not one of`},
		{`sum by (chain) (increase(tradeapi_orders_final_total{state=~"failed|expired"}[15m]))`, ""},
		{`rate(tradeapi_orders_final_total{state="broadcast"}[5m])`, `"broadcast" is not one of`},
		{`rate(tradeapi_exits_price_reads_total{outcome="error", type="stop_loss"}[5m])`, `has no label "type"`},
		{`sum by (method) (rate(tradeapi_orders_total[5m]))`, `grouping label "method"`},
		{`rate(tradeapi_orders_total{le="1"}[5m])`, `has no label "le"`},
		{`sum(rate(tradeapi_webhook_deliveries_total{outcome=~"retry|rejected|gave_up"}[15m]))`, ""},
		{`sum(rate(tradeapi_webhook_deliveries_total{outcome="failed"}[15m]))`, `"failed" is not one of`},
		{`sum by (reason) (rate(tradeapi_exits_deferred_total{reason="budget"}[5m]))`, ""},
		{`rate(tradeapi_exits_deferred_total{reason="rate_limit"}[5m])`, `"rate_limit" is not one of`},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			got := exprProblems(fams, tc.expr)
			switch {
			case tc.want == "" && len(got) > 0:
				t.Fatalf("problems %q, want none", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Fatalf("problems %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// family resolves a selected name to its family: a histogram's series carry
// _bucket, _sum and _count; up is Prometheus's own.
func family(fams map[string]familyInfo, name string) (familyInfo, bool) {
	if name == "up" {
		return familyInfo{typ: "GAUGE", labels: map[string]bool{}}, true
	}
	if fi, ok := fams[name]; ok && fi.typ != "HISTOGRAM" {
		return fi, true
	}
	for _, suf := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			if fi, ok := fams[base]; ok && fi.typ == "HISTOGRAM" {
				return fi, true
			}
		}
	}
	return familyInfo{labels: map[string]bool{}}, false
}

func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == q {
			return j + 1
		}
	}
	return len(s)
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == ':' }

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestUnitFits: the dashboard's unit check reads overrides as Grafana does.
func TestUnitFits(t *testing.T) {
	const quantile = `histogram_quantile(0.99, sum by (le) (rate(tradeapi_webhook_delivery_duration_seconds_bucket[5m])))`
	const perSecond = `sum(rate(tradeapi_webhook_delivery_duration_seconds_count[5m]))`
	const count = `max(tradeapi_webhook_backlog_accounts)`
	override := func(unit, matcher, options, value string) fieldConfig {
		var fc fieldConfig
		fc.Defaults.Unit = unit
		if err := json.Unmarshal([]byte(`[{"matcher":{"id":"`+matcher+`","options":"`+options+`"},"properties":[{"id":"unit","value":"`+value+`"}]}]`), &fc.Overrides); err != nil {
			t.Fatal(err)
		}
		return fc
	}
	for _, c := range []struct {
		name          string
		fc            fieldConfig
		ref, expr, lg string
		fits          bool
	}{
		{"a quantile in seconds", override("s", "byName", "x", "short"), "A", quantile, "p99", true},
		{"a quantile in ms", override("ms", "byName", "x", "short"), "A", quantile, "p99", false},
		{"a quantile times 1000 in ms", override("ms", "byName", "x", "short"), "A", "1000 * " + quantile, "p99", true},
		{"a quantile in short", override("short", "byName", "x", "short"), "A", quantile, "p99", false},
		{"a histogram's count rate in seconds", override("s", "byName", "x", "short"), "A", perSecond, "sent /s", false},
		{"a histogram's count rate in ops", override("ops", "byName", "x", "short"), "A", perSecond, "sent /s", true},
		{"a count in seconds", override("s", "byName", "x", "short"), "A", count, "accounts slower", false},
		{"a count made short by name", override("s", "byName", "accounts slower", "short"), "A", count, "accounts slower", true},
		{"a count made short by refId", override("s", "byFrameRefID", "B", "short"), "B", count, "accounts slower", true},
		{"another refId's override", override("s", "byFrameRefID", "B", "short"), "C", count, "accounts slower", false},
		// Grafana anchors a pattern not written /re/: "accounts" is not
		// "accounts slower".
		{"an anchored pattern", override("s", "byRegexp", "accounts", "short"), "A", count, "accounts slower", false},
		{"a pattern of the whole name", override("s", "byRegexp", "queued|accounts slower", "short"), "A", count, "accounts slower", true},
		{"a /re/ pattern, not anchored", override("s", "byRegexp", "/accounts/", "short"), "A", count, "accounts slower", true},
	} {
		err := c.fc.unitFits(c.ref, c.expr, c.lg)
		if (err == nil) != c.fits {
			t.Errorf("%s: %v, want fits %v", c.name, err, c.fits)
		}
	}
}
