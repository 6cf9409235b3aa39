package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// leakedSecrets reads every log line the roles wrote (the JSON lines; the
// registry's one-time banner on standard output is not a log line) and
// names each secret found in one: an API key or its secret part, the admin
// token, the master key, the NATS password. The NATS nodes' logs are read
// too: they are tradeapi processes.
func leakedSecrets(logDir string, secrets map[string]string) ([]string, int, error) {
	files, err := filepath.Glob(filepath.Join(logDir, "*.log"))
	if err != nil {
		return nil, 0, err
	}
	var leaks []string
	lines := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, 0, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "{") {
				continue
			}
			lines++
			for name, s := range secrets {
				if s == "" {
					continue
				}
				// An API key's secret is its part after the last
				// underscore; other secrets are matched whole.
				secretPart := s
				if i := strings.LastIndexByte(s, '_'); i > 0 && strings.HasPrefix(s, "tapi_") {
					secretPart = s[i+1:]
				}
				if strings.Contains(line, s) || strings.Contains(line, secretPart) {
					leaks = append(leaks, fmt.Sprintf("%s in %s", name, filepath.Base(f)))
				}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, 0, fmt.Errorf("read %s: %w", f, err)
		}
	}
	return leaks, lines, nil
}
