package client_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/tradeapi/tradeapi/shared/client"
)

// A webhook receiver answers 204 to an event it verified and 503 to one it
// could not: a 5xx makes the service send the event again, while a 401
// would end its delivery, losing every event signed with a secret rotated
// a moment ago.
func ExampleParseWebhook() {
	secret := "whsec_current"
	hook := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e, err := client.ParseWebhook(r, secret)
		if err != nil {
			log.Printf("webhook not verified: %v", err)
			http.Error(w, "cannot verify the signature", http.StatusServiceUnavailable)
			return
		}
		// Drop an e.ID already seen, then go by e.State.
		fmt.Println(e.Type, e.OrderID, e.State)
		w.WriteHeader(http.StatusNoContent)
	})

	body := `{"id":"eu-1.confirmed","type":"confirmed","order_id":"eu-1","state":"confirmed","signatures":[],"at":"2026-05-09T07:33:08Z"}`
	deliver := func(signedWith string) int {
		t := strconv.FormatInt(time.Now().Unix(), 10)
		mac := hmac.New(sha256.New, []byte(signedWith))
		mac.Write([]byte(t + "." + body))
		r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
		r.Header.Set(client.HeaderSignature, "t="+t+",v1="+hex.EncodeToString(mac.Sum(nil)))
		w := httptest.NewRecorder()
		hook.ServeHTTP(w, r)
		return w.Code
	}
	fmt.Println(deliver("whsec_current"))
	// The account's secret was rotated and the receiver does not hold the
	// new one yet: the 503 keeps the event coming back until it does.
	fmt.Println(deliver("whsec_rotated"))
	// Output:
	// confirmed eu-1 confirmed
	// 204
	// 503
}
