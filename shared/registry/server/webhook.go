package server

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	bolt "go.etcd.io/bbolt"

	"github.com/tradeapi/tradeapi/shared/apierr"
	"github.com/tradeapi/tradeapi/shared/envelope"
	"github.com/tradeapi/tradeapi/shared/events"
	"github.com/tradeapi/tradeapi/shared/registry"
)

// webhookRecord is an account's webhook in the store. The secret is kept as
// issued: the dispatcher needs it to sign, so it cannot be hashed.
type webhookRecord struct {
	URL     string    `json:"url"`
	Secret  string    `json:"secret"`
	Created time.Time `json:"created"`
	// Since is when the account's webhooks began without a break: a PUT
	// over a webhook keeps it, a PUT after a DELETE starts it again. Zero
	// in records written before it was kept, where Created stands for it.
	Since time.Time `json:"since,omitzero"`
}

// since is when the account's webhooks began without a break.
func (w *webhookRecord) since() time.Time {
	if w.Since.IsZero() {
		return w.Created
	}
	return w.Since
}

// newWebhookDoc is a webhook as the read model and the account answer show
// it: the URL and when it was set, never the secret.
func newWebhookDoc(w *webhookRecord) *registry.WebhookDoc {
	if w == nil {
		return nil
	}
	return &registry.WebhookDoc{URL: w.URL, Created: w.Created}
}

// newWebhookSecret returns a fresh signing secret: the prefix and 32 random
// bytes in base58. Receivers key the HMAC with the whole string's bytes.
// The secret is random, never derived from the URL or the account, so a
// new PUT makes the old one useless at once.
func newWebhookSecret() string {
	return registry.WebhookSecretPrefix + registry.Base58Of([32]byte(registry.RandomBytes(32)))
}

// webhookItem is an account's entry in the webhooks bucket, the only
// place outside the store that holds the secret.
func webhookItem(accountID string) kvItem { return kvItem{webhook: true, key: accountID} }

// webhook returns an account's webhook, nil when it has none. It reads the
// account whole: webhooks change rarely, and one read path is simpler
// than a second index.
func (s *store) webhook(accountID string) (*webhookRecord, error) {
	st, err := s.account(accountID)
	if err != nil {
		return nil, err
	}
	return st.rec.Webhook, nil
}

// webhookAccounts lists the ids of the accounts that have a webhook, for a
// resync of the webhooks bucket.
func (s *store) webhookAccounts() ([]string, error) {
	var ids []string
	err := s.db.View(func(tx *bolt.Tx) error {
		accounts := tx.Bucket(bucketAccounts)
		return accounts.ForEachBucket(func(k []byte) error {
			rec, err := readAccountRecord(accounts.Bucket(k))
			if err != nil {
				return fmt.Errorf("account %s: %w", k, err)
			}
			if rec.Webhook != nil {
				ids = append(ids, rec.ID)
			}
			return nil
		})
	})
	return ids, err
}

// setWebhook validates and stores an account's webhook URL with a new
// secret, replacing any previous webhook and its secret.
func (r *Registry) setWebhook(ctx context.Context, accountID, rawURL string) (webhookRecord, error) {
	// The check the dispatcher makes before each delivery, made on the
	// very string stored, so a URL it would refuse is refused here, where
	// the operator sees why.
	stored, u, err := events.StoredURL(rawURL, r.cfg.AllowLocalWebhooks)
	if err != nil {
		return webhookRecord{}, apierr.Invalid("url", "%s", err.Error())
	}
	// Every PUT issues a new secret, even for the same URL: setting the
	// webhook again is how an operator rotates a leaked secret.
	w := webhookRecord{URL: stored, Secret: newWebhookSecret(), Created: now()}
	if _, err := r.store.updateAccount(accountID, func(rec *accountRecord) error {
		// A webhook set in place of another takes over its time: the
		// account has been told of its orders since then, and an event
		// emitted again from before it is still owed.
		w.Since = w.Created
		if rec.Webhook != nil {
			w.Since = rec.Webhook.since()
		}
		rec.Webhook = &w
		return nil
	}); err != nil {
		return webhookRecord{}, err
	}
	// The host only: a URL's path or query may hold a token of the receiver.
	r.log.Info("webhook set", "account", accountID, "host", u.Host)
	// Both entries: the secret for the dispatcher, the URL for the views.
	r.published(ctx, r.pub.mark(webhookItem(accountID), accountItem(accountID)))
	return w, nil
}

// deleteWebhook removes an account's webhook and reports whether it had one.
func (r *Registry) deleteWebhook(ctx context.Context, accountID string) (bool, error) {
	had := false
	if _, err := r.store.updateAccount(accountID, func(rec *accountRecord) error {
		had = rec.Webhook != nil
		rec.Webhook = nil
		return nil
	}); err != nil {
		return false, err
	}
	// Nothing to publish when there was no webhook: the answer says so.
	if had {
		r.log.Info("webhook removed", "account", accountID)
		r.published(ctx, r.pub.mark(webhookItem(accountID), accountItem(accountID)))
	}
	return had, nil
}

// webhookAnswer is the answer of PUT .../webhook: the only time the secret
// is shown.
type webhookAnswer struct {
	URL     string    `json:"url"`
	Secret  string    `json:"secret"`
	Created time.Time `json:"created"`
}

// handlePutWebhook answers PUT /admin/v1/accounts/{id}/webhook with the
// webhook and its new secret, the only time the secret is shown.
func (r *Registry) handlePutWebhook(c *gin.Context) {
	o, err := readObject(c)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	raw, err := o.str("url", true)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	// The URL is checked inside setWebhook, so the check and the save
	// cannot be separated by another route.
	w, err := r.setWebhook(c.Request.Context(), c.Param("id"), raw)
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, webhookAnswer{URL: w.URL, Secret: w.Secret, Created: w.Created})
}

// handleDeleteWebhook answers DELETE /admin/v1/accounts/{id}/webhook with
// {deleted}, false when there was none: deleting twice is not an error.
func (r *Registry) handleDeleteWebhook(c *gin.Context) {
	had, err := r.deleteWebhook(c.Request.Context(), c.Param("id"))
	if err != nil {
		envelope.Fail(c, err)
		return
	}
	envelope.OK(c, http.StatusOK, gin.H{"deleted": had})
}
