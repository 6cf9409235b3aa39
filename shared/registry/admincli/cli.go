// Package admincli is `tradeapi admin`: the account manager's command line,
// a thin client of the registry's admin API with the same verbs.
package admincli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/config"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// defaultAdminAddr is where the admin API listens unless configured.
var defaultAdminAddr = config.Default().Listen.Admin

var cliUsage = `usage: tradeapi admin [--addr HOST:PORT] [--data-dir DIR] <command>

commands:
  accounts create --name NAME
  accounts get ACCOUNT
  accounts list
  accounts usage ACCOUNT             (the rate budget's current window usage per family)
  accounts orders ACCOUNT [--limit N] (recent orders, newest first, with explorer links)
  keys create ACCOUNT --family sol|evm --name NAME
  keys revoke ACCOUNT KEY_ID
  wallets create ACCOUNT --family sol|evm [--count N] [--spot-active=false]
  wallets import ACCOUNT --family sol|evm --private-key-file FILE|- [--spot-active=false]
  wallets set ACCOUNT ADDRESS --spot-active=true|false
  strategy set ACCOUNT --file FILE|-
  limits set ACCOUNT --family sol|evm [--minute N] [--hour N] [--week N]
  webhook set ACCOUNT --url URL      (prints the new signing secret, shown once)
  webhook delete ACCOUNT
  devnet info
  devnet fund --chain CHAIN --address ADDRESS [--amount N] [--token T --token-amount N]
  devnet token --chain CHAIN --venue VENUE --name NAME --symbol SYMBOL [--quote-asset A] [--liquidity N]
               [--buy-tax-pct P] [--sell-tax-pct P] [--creator ADDRESS]
  devnet balance --chain CHAIN --address ADDRESS [--token T]

The admin API is at --addr, else TRADEAPI_ADMIN_ADDR, else ` + defaultAdminAddr + `.
The admin token is TRADEAPI_ADMIN_TOKEN, else the admin_token file under the data
folder (--data-dir, else TRADEAPI_DATA_DIR, else ./data). A private key is read from
a file or standard input, never from the command line.
`

// CLI runs `tradeapi admin ...`: a thin client of the admin API. It prints
// the JSON answer to stdout and returns 0 on success, 1 on an error answer
// or a failed request, and 2 on a usage error.
func CLI(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cl := &cliRun{ctx: ctx, stdout: stdout, stderr: stderr}
	if len(args) > 0 && args[0] == "admin" {
		args = args[1:]
	}
	// Global flags may come first; a command parses the rest, where they
	// are accepted too.
	fs := cl.flags("admin")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, cliUsage)
			return 0
		}
		return cl.usage(err)
	}
	pos := fs.Args()
	if len(pos) < 1 {
		return cl.usage(errors.New("no command given"))
	}
	if pos[0] == "help" {
		fmt.Fprint(stdout, cliUsage)
		return 0
	}
	if len(pos) < 2 {
		return cl.usage(fmt.Errorf("%s: no verb given", pos[0]))
	}
	cmd := pos[0] + " " + pos[1]
	fn, ok := cliCommands[cmd]
	if !ok {
		return cl.usage(fmt.Errorf("unknown command %q", cmd))
	}
	return fn(cl, pos[2:])
}

type cliRun struct {
	ctx            context.Context
	stdout, stderr io.Writer
	addr, dataDir  string
}

// flags returns a flag set with the options every command accepts.
func (cl *cliRun) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cl.addr, "addr", cl.addr, "admin API address")
	fs.StringVar(&cl.dataDir, "data-dir", cl.dataDir, "data folder holding the admin token")
	return fs
}

func (cl *cliRun) usage(err error) int {
	fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n\n%s", err, cliUsage)
	return 2
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

var cliCommands = map[string]func(*cliRun, []string) int{
	"accounts create": func(cl *cliRun, args []string) int {
		fs := cl.flags("accounts create")
		name := fs.String("name", "", "account name")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, "/admin/v1/accounts", map[string]any{"name": *name})
	},
	"accounts get": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("accounts get"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts/"+url.PathEscape(pos[0]), nil)
	},
	"accounts usage": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("accounts usage"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts/"+url.PathEscape(pos[0])+"/usage", nil)
	},
	"accounts orders": func(cl *cliRun, args []string) int {
		fs := cl.flags("accounts orders")
		limit := fs.Int("limit", 20, "how many orders, 1 to 100")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		if *limit < 1 || *limit > 100 {
			return cl.usage(errors.New("--limit must be 1 to 100"))
		}
		return cl.call(http.MethodGet, fmt.Sprintf("/admin/v1/accounts/%s/orders?limit=%d", url.PathEscape(pos[0]), *limit), nil)
	},
	"accounts list": func(cl *cliRun, args []string) int {
		if _, err := cl.parse(cl.flags("accounts list"), args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/accounts", nil)
	},
	"keys create": func(cl *cliRun, args []string) int {
		fs := cl.flags("keys create")
		family := fs.String("family", "", "sol or evm")
		name := fs.String("name", "", "key name")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, accountPath(pos[0], "keys"), map[string]any{"family": *family, "name": *name})
	},
	"keys revoke": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("keys revoke"), args, 2)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodDelete, accountPath(pos[0], "keys", pos[1]), nil)
	},
	"wallets create": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets create")
		family := fs.String("family", "", "sol or evm")
		count := fs.Int("count", 1, "how many wallets")
		active := fs.Bool("spot-active", true, "enable the wallets for spot trading")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, accountPath(pos[0], "wallets"),
			map[string]any{"family": *family, "count": *count, "spot_active": *active})
	},
	"wallets import": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets import")
		family := fs.String("family", "", "sol or evm")
		file := fs.String("private-key-file", "", "file holding the private key, - for standard input")
		active := fs.Bool("spot-active", true, "enable the wallet for spot trading")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		if *file == "" {
			return cl.usage(errors.New("--private-key-file is required"))
		}
		key, err := readFileOrStdin(*file)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
			return 1
		}
		return cl.call(http.MethodPost, accountPath(pos[0], "wallets", "import"),
			map[string]any{"family": *family, "private_key": strings.TrimSpace(string(key)), "spot_active": *active})
	},
	"wallets set": func(cl *cliRun, args []string) int {
		fs := cl.flags("wallets set")
		active := fs.String("spot-active", "", "true or false")
		pos, err := cl.parse(fs, args, 2)
		if err != nil {
			return cl.usage(err)
		}
		var v bool
		switch *active {
		case "true":
			v = true
		case "false":
		default:
			return cl.usage(errors.New("--spot-active=true or --spot-active=false is required"))
		}
		return cl.call(http.MethodPatch, accountPath(pos[0], "wallets", pos[1]), map[string]any{"spot_active": v})
	},
	"strategy set": func(cl *cliRun, args []string) int {
		fs := cl.flags("strategy set")
		file := fs.String("file", "", `JSON file: {"auto_orders": [...]} or the bare array, - for standard input`)
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		if *file == "" {
			return cl.usage(errors.New("--file is required"))
		}
		raw, err := readFileOrStdin(*file)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
			return 1
		}
		raw = bytes.TrimSpace(raw)
		var body any = json.RawMessage(raw)
		if len(raw) > 0 && raw[0] == '[' {
			body = map[string]any{"auto_orders": json.RawMessage(raw)}
		} else if !json.Valid(raw) {
			fmt.Fprintf(cl.stderr, "tradeapi admin: %s is not JSON\n", *file)
			return 1
		}
		return cl.call(http.MethodPut, accountPath(pos[0], "strategy"), body)
	},
	"limits set": func(cl *cliRun, args []string) int {
		fs := cl.flags("limits set")
		family := fs.String("family", "", "sol or evm")
		minute := fs.Int64("minute", 0, "requests a minute")
		hour := fs.Int64("hour", 0, "requests an hour")
		week := fs.Int64("week", 0, "requests a week")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		body := map[string]any{"family": *family}
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "minute":
				body["minute"] = *minute
			case "hour":
				body["hour"] = *hour
			case "week":
				body["week"] = *week
			}
		})
		return cl.call(http.MethodPut, accountPath(pos[0], "limits"), body)
	},
	"webhook set": func(cl *cliRun, args []string) int {
		fs := cl.flags("webhook set")
		u := fs.String("url", "", "http(s) URL the account's order events are POSTed to")
		pos, err := cl.parse(fs, args, 1)
		if err != nil {
			return cl.usage(err)
		}
		if *u == "" {
			return cl.usage(errors.New("--url is required"))
		}
		return cl.call(http.MethodPut, accountPath(pos[0], "webhook"), map[string]any{"url": *u})
	},
	"webhook delete": func(cl *cliRun, args []string) int {
		pos, err := cl.parse(cl.flags("webhook delete"), args, 1)
		if err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodDelete, accountPath(pos[0], "webhook"), nil)
	},
	"devnet info": func(cl *cliRun, args []string) int {
		if _, err := cl.parse(cl.flags("devnet info"), args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodGet, "/admin/v1/devnet", nil)
	},
	"devnet fund": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet fund")
		s := stringFlags(fs, "chain", "address", "amount", "token", "token-amount")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		return cl.call(http.MethodPost, "/admin/v1/devnet/fund", s.body())
	},
	"devnet token": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet token")
		s := stringFlags(fs, "chain", "venue", "name", "symbol", "quote-asset", "liquidity", "creator")
		buyTax := fs.Float64("buy-tax-pct", 0, "buy tax in percent")
		sellTax := fs.Float64("sell-tax-pct", 0, "sell tax in percent")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		body := s.body()
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "buy-tax-pct":
				body["buy_tax_pct"] = *buyTax
			case "sell-tax-pct":
				body["sell_tax_pct"] = *sellTax
			}
		})
		return cl.call(http.MethodPost, "/admin/v1/devnet/tokens", body)
	},
	"devnet balance": func(cl *cliRun, args []string) int {
		fs := cl.flags("devnet balance")
		s := stringFlags(fs, "chain", "address", "token")
		if _, err := cl.parse(fs, args, 0); err != nil {
			return cl.usage(err)
		}
		q := url.Values{}
		for k, v := range s.body() {
			q.Set(k, v.(string))
		}
		return cl.call(http.MethodGet, "/admin/v1/devnet/balance?"+q.Encode(), nil)
	},
}

// stringSet is a group of string flags sent as JSON fields, dashes turned
// into underscores; flags left unset are not sent.
type stringSet map[string]*string

func stringFlags(fs *flag.FlagSet, names ...string) stringSet {
	s := stringSet{}
	for _, n := range names {
		s[n] = fs.String(n, "", n)
	}
	return s
}

func (s stringSet) body() map[string]any {
	out := map[string]any{}
	for n, v := range s {
		if *v != "" {
			out[strings.ReplaceAll(n, "-", "_")] = *v
		}
	}
	return out
}

// parse parses a command's flags and checks it got exactly n positional
// arguments.
func (cl *cliRun) parse(fs *flag.FlagSet, args []string, n int) ([]string, error) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		return nil, fmt.Errorf("%s takes %d argument(s), got %d", fs.Name(), n, len(pos))
	}
	return pos, nil
}

func accountPath(id string, parts ...string) string {
	p := "/admin/v1/accounts/" + url.PathEscape(id)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}

func readFileOrStdin(name string) ([]byte, error) {
	if name == "-" {
		b, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return b, nil
}

// baseURL turns the configured address into a URL.
func (cl *cliRun) baseURL() string {
	addr := cl.addr
	if addr == "" {
		addr = os.Getenv("TRADEAPI_ADMIN_ADDR")
	}
	if addr == "" {
		addr = defaultAdminAddr
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	return strings.TrimRight(addr, "/")
}

func (cl *cliRun) token() (string, error) {
	if t := strings.TrimSpace(os.Getenv("TRADEAPI_ADMIN_TOKEN")); t != "" {
		return t, nil
	}
	dir := cl.dataDir
	if dir == "" {
		dir = os.Getenv("TRADEAPI_DATA_DIR")
	}
	if dir == "" {
		dir = "./data"
	}
	b, err := os.ReadFile(registry.AdminTokenPath(dir))
	if err != nil {
		return "", fmt.Errorf("no TRADEAPI_ADMIN_TOKEN and no admin token file: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// call sends one request and prints the answer.
func (cl *cliRun) call(method, path string, body any) int {
	tok, err := cl.token()
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			fmt.Fprintf(cl.stderr, "tradeapi admin: encode request: %v\n", err)
			return 1
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(cl.ctx, 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, cl.baseURL()+path, rd)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %v\n", err)
		return 1
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: %s %s: %v\n", method, cl.baseURL(), err)
		return 1
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: read answer: %v\n", err)
		return 1
	}
	var env struct {
		Success bool `json:"success"`
		Error   *struct {
			Code    string  `json:"code"`
			Message string  `json:"message"`
			Details *string `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		fmt.Fprintf(cl.stderr, "tradeapi admin: HTTP %d, not a JSON answer\n", resp.StatusCode)
		return 1
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, raw, "", "  ") == nil {
		raw = pretty.Bytes()
	}
	fmt.Fprintf(cl.stdout, "%s\n", raw)
	if !env.Success {
		if env.Error != nil {
			msg := env.Error.Code + ": " + env.Error.Message
			if env.Error.Details != nil {
				msg += " (" + *env.Error.Details + ")"
			}
			fmt.Fprintf(cl.stderr, "tradeapi admin: %s\n", msg)
		}
		return 1
	}
	return 0
}
