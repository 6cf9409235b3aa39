//go:build linux

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// procAttr puts a child in its own process group, so that a signal reaches
// it and anything it starts, and has the kernel kill it if the run dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// listeners returns the TCP addresses the given processes listen on, read
// from /proc: the sockets each process holds, matched against the kernel's
// table of listening sockets.
func listeners(pids map[string]int) (map[string][]string, error) {
	listening := map[string]string{} // socket inode -> local address
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // header
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			if len(fields) < 10 || fields[3] != "0A" {
				continue
			}
			listening[fields[9]] = decodeProcAddr(fields[1])
		}
		f.Close()
	}
	out := map[string][]string{}
	for name, pid := range pids {
		if pid == 0 {
			continue
		}
		dir := fmt.Sprintf("/proc/%d/fd", pid)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			target, err := os.Readlink(filepath.Join(dir, e.Name()))
			if err != nil || !strings.HasPrefix(target, "socket:[") {
				continue
			}
			inode := strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]")
			if addr, ok := listening[inode]; ok {
				out[name] = append(out[name], addr)
			}
		}
	}
	return out, nil
}

// decodeProcAddr turns /proc/net/tcp's "0100007F:1F90" (or the 32-digit
// IPv6 form) into "127.0.0.1:8080". The address words are in host order,
// little-endian on every platform this runs on.
func decodeProcAddr(s string) string {
	hexIP, hexPort, ok := strings.Cut(s, ":")
	if !ok {
		return s
	}
	var port int
	fmt.Sscanf(hexPort, "%X", &port)
	var ip []byte
	for i := 0; i+8 <= len(hexIP); i += 8 {
		var w uint32
		fmt.Sscanf(hexIP[i:i+8], "%X", &w)
		ip = append(ip, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	switch len(ip) {
	case 4:
		return fmt.Sprintf("%d.%d.%d.%d:%d", ip[0], ip[1], ip[2], ip[3], port)
	case 16:
		if string(ip[:12]) == "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff" {
			return fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], port)
		}
		var parts []string
		for i := 0; i < 16; i += 2 {
			parts = append(parts, fmt.Sprintf("%x", int(ip[i])<<8|int(ip[i+1])))
		}
		return "[" + strings.Join(parts, ":") + "]:" + fmt.Sprint(port)
	}
	return s
}
