package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime/pprof"
	"strings"
)

// floorSwap is the swap body as the bare handler decodes it: the same JSON
// the buys send, read with encoding/json into plain fields.
type floorSwap struct {
	Address  string         `json:"address"`
	Side     string         `json:"side"`
	Amount   string         `json:"amount"`
	Slippage json.Number    `json:"slippage"`
	Chain    string         `json:"chain"`
	Wallets  []floorSwapLeg `json:"wallets"`
}

type floorSwapLeg struct {
	Address string `json:"address"`
	Amount  string `json:"amount"`
}

// floorAnswer is shaped like a buy's answer: an order id and one
// signature, in the service's envelope.
const floorAnswer = `{"success":true,"data":{"order_id":"sol-eu-0123456789ABCDEFGHIJKL","signatures":["` +
	"5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW" +
	`"],"skipped":false}}`

// floor is a bare net/http server the service is measured against in the
// same run: POST /api/v1/swap decodes the swap body and answers like a
// buy, GET /api/v1/wallets serves the wallet listing's bytes as they are.
// It does nothing else, so its figures are what loopback HTTP, the JSON
// decoding and this program's own client cost on this machine now.
type floor struct {
	url   string
	close func()
}

// floorMux is the bare handler.
func floorMux(listing []byte) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/swap", func(w http.ResponseWriter, r *http.Request) {
		var req floorSwap
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Address == "" || len(req.Wallets) == 0 ||
			!strings.EqualFold(req.Side, "buy") {
			http.Error(w, `{"success":false}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write([]byte(floorAnswer))
	})
	mux.HandleFunc("GET /api/v1/wallets", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(listing)
	})
	return mux
}

// startFloor serves the bare handler in this process on a free 127.0.0.1
// port. Its goroutines carry the profile label role=floor.
func startFloor(listing []byte) (*floor, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: floorMux(listing)}
	go pprof.Do(context.Background(), pprof.Labels(labelRole, roleFloor), func(context.Context) {
		_ = srv.Serve(ln)
	})
	return &floor{url: "http://" + ln.Addr().String(), close: func() { _ = srv.Close() }}, nil
}

// startFloorProcess serves the bare handler from a child process (this
// program run with -floor-child), as a bot reaches a server in another
// process: a request then also wakes another process's threads, which a
// server in the client's own process is spared. The child reads the
// listing from its standard input, prints its address, and exits when its
// standard input closes, so it cannot outlive this program.
func startFloorProcess(listing []byte) (*floor, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-floor-child")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		_ = in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	if err := binary.Write(in, binary.BigEndian, uint32(len(listing))); err != nil {
		stop()
		return nil, err
	}
	if _, err := in.Write(listing); err != nil {
		stop()
		return nil, err
	}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return nil, fmt.Errorf("floor process: %w", err)
	}
	return &floor{url: "http://" + strings.TrimSpace(addr), close: stop}, nil
}

// floorChild is the child's side of startFloorProcess.
func floorChild() error {
	var n uint32
	if err := binary.Read(os.Stdin, binary.BigEndian, &n); err != nil {
		return err
	}
	listing := make([]byte, n)
	if _, err := io.ReadFull(os.Stdin, listing); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	fmt.Println(ln.Addr().String())
	return http.Serve(ln, floorMux(listing))
}
