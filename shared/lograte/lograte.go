// Package lograte keeps a failure that repeats every poll from flooding the
// log: its warning is written once per interval and key, and the repeats
// in between at debug level.
package lograte

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Warner writes a key's warnings at most once per Every. The zero value
// warns once a minute. It is safe for concurrent use.
type Warner struct {
	Every time.Duration

	mu   sync.Mutex
	last map[string]time.Time
	now  func() time.Time // for tests
}

// Warn logs msg with args on log: as a warning when key has not warned
// within Every, else at debug level.
func (w *Warner) Warn(log *slog.Logger, key, msg string, args ...any) {
	if w.loud(key) {
		log.Warn(msg, args...)
		return
	}
	log.Debug(msg, args...)
}

// Error is Warn at error level: a failure an operator must act on, written
// once per Every and key, the repeats at debug level.
func (w *Warner) Error(log *slog.Logger, key, msg string, args ...any) {
	if w.loud(key) {
		log.Error(msg, args...)
		return
	}
	log.Debug(msg, args...)
}

// WarnContext is Warn that says nothing once ctx has ended (a read cut
// short by a stop is no failure).
func (w *Warner) WarnContext(ctx context.Context, log *slog.Logger, key, msg string, args ...any) {
	if ctx.Err() != nil {
		return
	}
	w.Warn(log, key, msg, args...)
}

func (w *Warner) loud(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if w.now != nil {
		now = w.now()
	}
	every := w.Every
	if every <= 0 {
		every = time.Minute
	}
	if w.last == nil {
		w.last = make(map[string]time.Time)
	}
	if t, ok := w.last[key]; ok && now.Sub(t) < every {
		return false
	}
	w.last[key] = now
	return true
}
