package bus

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/nats-io/nats-server/v2/server"
)

// natsLogger adapts the server's logger to slog.
type natsLogger struct{ log *slog.Logger }

func (l *natsLogger) Noticef(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l *natsLogger) Warnf(format string, v ...any)   { l.log.Warn(fmt.Sprintf(format, v...)) }
func (l *natsLogger) Fatalf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l *natsLogger) Errorf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l *natsLogger) Debugf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l *natsLogger) Tracef(format string, v ...any)  {}

// listenHostPort splits a listen address for the server's options, where
// port 0 means the default port: a 0 given here means any free port, as it
// does for net.Listen.
func listenHostPort(what, addr string) (string, int, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("%s address %q: %w", what, addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil || p < 0 || p > 65535 {
		return "", 0, fmt.Errorf("%s port %q: not a port number", what, port)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	return host, p, nil
}
