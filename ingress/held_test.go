package ingress

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/tradeapi/tradeapi/shared/wire"
)

// TestSettleBeforeTheWaitIsSeen: a unit settled between a request's look
// at the budget and its wait is seen at once, not missed (answered 429
// although a unit was free, or after waiting for another); with nothing
// settled and nothing held there is nothing to wait for.
func TestSettleBeforeTheWaitIsSeen(t *testing.T) {
	t.Parallel()
	h := &handler{s: &Server{cfg: Config{RequestTimeout: 10 * time.Second}}, l: Listener{Family: wire.FamilySol}}
	request := func() *gin.Context {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("POST", "/api/v1/swap", nil)
		return c
	}
	a, b, waiter := request(), request(), request()
	h.takeHeld(a, "acct")
	h.takeHeld(b, "acct")
	seen := h.heldSettles("acct") // the look at the budget: spent
	h.settleHeld(a)               // a's unit given back just then
	start := time.Now()
	if !h.awaitHeld(waiter, "acct", &seen, time.Now().Add(heldWait)) || time.Since(start) > heldWait/2 {
		t.Fatalf("a settle before the wait was missed (waited %v)", time.Since(start))
	}
	h.settleHeld(a) // settled once only
	if seen != 1 {
		t.Fatalf("settles seen %d, want 1", seen)
	}
	// b still held: the next settle wakes the waiter.
	go func() {
		time.Sleep(20 * time.Millisecond)
		h.settleHeld(b)
	}()
	if !h.awaitHeld(waiter, "acct", &seen, time.Now().Add(5*time.Second)) || seen != 2 {
		t.Fatalf("b's settle did not wake the waiter (seen %d)", seen)
	}
	// Nothing held, nothing settled since: no wait.
	start = time.Now()
	if h.awaitHeld(waiter, "acct", &seen, time.Now().Add(5*time.Second)) || time.Since(start) > time.Second {
		t.Fatalf("waited %v with nothing held", time.Since(start))
	}
}
