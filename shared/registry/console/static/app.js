// The account manager console. Every read and write goes through the admin
// API (/admin/v1), the same one the `tradeapi admin` CLI uses; this script
// only renders its answers. Data is put into the page with textContent and
// attributes, never as HTML.
'use strict';

(function () {
  const TOKEN_KEY = 'tradeapi.admin_token';
  const CSRF_HEADER = 'X-Tradeapi-Csrf';
  const AUTO_ORDER_TYPES = ['take_profit', 'stop_loss', 'trailing_stop', 'time', 'dev_sell'];
  const EVM_CHAINS = ['eth', 'bsc', 'base', 'rbh', 'arc'];
  const FAMILY_NAMES = { sol: 'Solana', evm: 'EVM' };
  const FEE_CAP_FIELDS = ['max_priority_fee', 'max_processor_tip', 'max_jito_tip'];

  const main = document.getElementById('main');
  const nav = document.getElementById('nav');
  const statusLine = document.getElementById('status');

  // ---- the admin token: this tab's sessionStorage only ----

  function token() { return sessionStorage.getItem(TOKEN_KEY) || ''; }

  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    nav.hidden = true;
    showStatus(message || 'Signed out.');
    if (location.hash !== '#/signin') {
      location.hash = '#/signin';
    } else {
      render();
    }
  }

  // ---- the admin API ----

  class APIError extends Error {
    constructor(status, body) {
      const e = (body && body.error) || {};
      super(e.message || ('HTTP ' + status));
      this.status = status;
      this.code = e.code || '';
      this.details = e.details || '';
    }
  }

  // api calls the admin API. A state-changing call carries the CSRF header,
  // which no cross-site form can send; the token travels in Authorization,
  // never in the URL.
  async function api(method, path, body, tok) {
    const headers = { 'Authorization': 'Bearer ' + (tok || token()), 'Accept': 'application/json' };
    if (method !== 'GET') {
      headers[CSRF_HEADER] = '1';
    }
    const init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const resp = await fetch('/admin/v1' + path, init);
    let parsed = null;
    try {
      parsed = parseJSON(await resp.text());
    } catch (_) {
      parsed = null;
    }
    if (!resp.ok || !parsed || !parsed.success) {
      const err = new APIError(resp.status, parsed);
      if (resp.status === 401 && !tok) {
        signOut('The admin token was refused; sign in again.');
      }
      throw err;
    }
    return parsed.data;
  }

  // parseJSON keeps each fee cap as the exact text the server sent. As a
  // JavaScript number, 0.000000001 would show as 1e-9 and a cap with 18
  // decimals would be rounded. A browser that does not give the reviver the
  // source text gets numbers, which capText still shows as plain decimals.
  function parseJSON(text) {
    return JSON.parse(text, function (key, value, ctx) {
      if (typeof value === 'number' && FEE_CAP_FIELDS.includes(key) && ctx && typeof ctx.source === 'string') {
        return ctx.source;
      }
      return value;
    });
  }

  function describe(err) {
    if (err instanceof APIError) {
      return err.details ? err.message + ' (' + err.details + ')' : err.message;
    }
    return 'The admin API could not be reached: ' + err.message;
  }

  // ---- small DOM helpers ----

  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === 'text') n.textContent = v;
      else if (k === 'class') n.className = v;
      else if (v === true) n.setAttribute(k, '');
      else n.setAttribute(k, v);
    }
    for (const c of children) {
      if (c !== null && c !== undefined) n.append(c);
    }
    return n;
  }

  function mount(id) {
    main.replaceChildren(document.getElementById(id).content.cloneNode(true));
    main.focus({ preventScroll: true });
  }

  function $(sel) { return main.querySelector(sel); }

  function showStatus(msg) {
    statusLine.textContent = msg;
    statusLine.hidden = !msg;
  }

  function formError(form, err) {
    const p = form.querySelector('.error');
    p.textContent = err ? describe(err) : '';
    p.hidden = !err;
  }

  function formOK(form, msg) {
    const p = form.querySelector('.ok');
    if (p) {
      p.textContent = msg;
      p.hidden = !msg;
    }
  }

  function when(s) {
    if (!s) return '';
    const d = new Date(s);
    return isNaN(d) ? s : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  }

  // onSubmit runs fn on a form's submit, with its submit button disabled
  // while the call is in flight and errors shown in the form.
  function onSubmit(form, fn) {
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const btn = form.querySelector('button[type=submit]');
      btn.disabled = true;
      formError(form, null);
      formOK(form, '');
      try {
        await fn(form);
      } catch (err) {
        formError(form, err);
      } finally {
        btn.disabled = false;
      }
    });
  }

  // confirmDialog asks a yes/no question in a modal dialog.
  function confirmDialog(text, okLabel) {
    const dlg = document.getElementById('confirm');
    document.getElementById('confirm-text').textContent = text;
    const ok = document.getElementById('confirm-ok');
    const cancel = document.getElementById('confirm-cancel');
    ok.textContent = okLabel;
    return new Promise((resolve) => {
      const done = (answer) => {
        ok.removeEventListener('click', yes);
        cancel.removeEventListener('click', no);
        dlg.removeEventListener('cancel', no);
        dlg.close();
        resolve(answer);
      };
      const yes = () => done(true);
      const no = (ev) => { if (ev) ev.preventDefault(); done(false); };
      ok.addEventListener('click', yes);
      cancel.addEventListener('click', no);
      dlg.addEventListener('cancel', no);
      dlg.showModal();
      cancel.focus();
    });
  }

  // ---- pages ----

  function renderSignIn() {
    nav.hidden = true;
    document.getElementById('venues').hidden = true;
    mount('tpl-signin');
    const form = $('#signin-form');
    const input = $('#signin-token');
    const errLine = $('#signin-error');
    input.focus();
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const tok = input.value.trim();
      errLine.hidden = true;
      if (!tok) {
        errLine.textContent = 'Enter the admin token.';
        errLine.hidden = false;
        return;
      }
      try {
        await api('GET', '/accounts', undefined, tok);
      } catch (err) {
        errLine.textContent = err.status === 401 ? 'That admin token was refused.' : describe(err);
        errLine.hidden = false;
        input.select();
        return;
      }
      input.value = '';
      sessionStorage.setItem(TOKEN_KEY, tok);
      showStatus('');
      if (location.hash === '#/accounts') {
        render();
      } else {
        location.hash = '#/accounts';
      }
    });
  }

  async function renderAccounts() {
    mount('tpl-accounts');
    const tbody = $('#accounts-table tbody');
    const data = await api('GET', '/accounts');
    for (const a of data.accounts) {
      tbody.append(el('tr', {},
        el('td', {}, el('a', { href: '#/accounts/' + encodeURIComponent(a.id), text: a.name })),
        el('td', {}, el('code', { text: a.id }))));
    }
    $('#accounts-empty').hidden = data.accounts.length > 0;
    onSubmit($('#create-account-form'), async (form) => {
      const created = await api('POST', '/accounts', { name: form.elements.name.value });
      location.hash = '#/accounts/' + encodeURIComponent(created.id);
    });
  }

  async function renderAccount(id) {
    mount('tpl-account');
    const path = '/accounts/' + encodeURIComponent(id);
    $('#orders-link').href = '#/accounts/' + encodeURIComponent(id) + '/orders';
    let acct = await api('GET', path);
    $('#account-title').textContent = acct.name;
    $('#account-id').textContent = acct.id;
    document.title = acct.name + ' - tradeapi account manager';

    const reload = async () => {
      acct = await api('GET', path);
      renderWallets(acct, path);
      renderKeys(acct, path);
      fillFundWallets(acct);
    };

    renderWallets(acct, path);
    onSubmit($('#create-wallet-form'), async (form) => {
      const count = form.elements.count.value.trim();
      const body = { family: form.elements.family.value, spot_active: form.elements.spot_active.checked };
      body.count = /^\d+$/.test(count) ? Number(count) : count;
      const res = await api('POST', path + '/wallets', body);
      await reload();
      showStatus('Created ' + res.wallets.map((w) => w.label).join(', ') + '.');
    });
    onSubmit($('#import-wallet-form'), async (form) => {
      const key = form.elements.private_key;
      const body = { family: form.elements.family.value, private_key: key.value.trim(), spot_active: form.elements.spot_active.checked };
      // The key leaves the page once: the field is cleared whatever the answer.
      key.value = '';
      const res = await api('POST', path + '/wallets/import', body);
      await reload();
      showStatus('Imported ' + res.wallets[0].label + ' (' + res.wallets[0].address + ').');
    });

    renderKeys(acct, path);
    onSubmit($('#create-key-form'), async (form) => {
      const res = await api('POST', path + '/keys', { family: form.elements.family.value, name: form.elements.name.value });
      form.reset();
      // Shown before the reload, which may fail: this answer holds the
      // key's only copy.
      showNewKey(res.key);
      await reload();
    });
    $('#copy-key').addEventListener('click', copyKey);
    $('#dismiss-key').addEventListener('click', () => {
      $('#new-key-value').value = '';
      $('#new-key').hidden = true;
      $('#copy-result').textContent = '';
    });

    renderLimits(acct, path);
    $('#refresh-usage').addEventListener('click', () => renderLimits(acct, path));

    for (const fam of ['sol', 'evm']) {
      const form = $('#fee-caps-' + fam);
      fillFeeCaps(form, acct.fee_caps && acct.fee_caps[fam]);
      onSubmit(form, (f) => saveFeeCaps(f, path));
    }

    renderStrategy(acct.strategy.auto_orders, path);
    setUpDevnet(acct);
  }

  function renderWallets(acct, path) {
    const box = $('#wallets');
    box.replaceChildren();
    for (const fam of ['sol', 'evm']) {
      const ws = acct.wallets.filter((w) => w.family === fam);
      box.append(el('h3', { text: FAMILY_NAMES[fam] + ' wallets' }));
      if (ws.length === 0) {
        box.append(el('p', { class: 'muted', text: 'None.' }));
        continue;
      }
      const tbody = el('tbody');
      // The API lists wallets in natural label order (W2 before W10).
      for (const w of ws) {
        const sw = el('input', {
          type: 'checkbox', role: 'switch', 'aria-label': 'Spot active ' + w.label,
          'data-address': w.address, checked: w.spot_active,
        });
        const state = el('span', { class: 'switch-state', 'aria-hidden': 'true', text: w.spot_active ? 'on' : 'off' });
        sw.addEventListener('change', async () => {
          const want = sw.checked;
          sw.disabled = true;
          try {
            const res = await api('PATCH', path + '/wallets/' + encodeURIComponent(w.address), { spot_active: want });
            w.spot_active = res.spot_active;
            showStatus(w.label + ' spot_active is now ' + (res.spot_active ? 'on' : 'off') + '.');
          } catch (err) {
            showStatus('Could not change ' + w.label + ': ' + describe(err));
          } finally {
            sw.checked = w.spot_active;
            state.textContent = w.spot_active ? 'on' : 'off';
            sw.disabled = false;
          }
        });
        tbody.append(el('tr', { 'data-label': w.label },
          el('th', { scope: 'row', text: w.label }),
          el('td', {}, el('code', { text: w.address })),
          el('td', {}, el('label', { class: 'switch' }, sw, state))));
      }
      box.append(el('table', { class: 'grid wallets', 'data-family': fam },
        el('caption', { class: 'sr', text: FAMILY_NAMES[fam] + ' wallets' }),
        el('thead', {}, el('tr', {},
          el('th', { scope: 'col', text: 'Label' }), el('th', { scope: 'col', text: 'Address' }),
          el('th', { scope: 'col', text: 'Spot active' }))),
        tbody));
    }
  }

  function renderKeys(acct, path) {
    const tbody = $('#keys-table tbody');
    tbody.replaceChildren();
    for (const k of acct.keys) {
      const btn = el('button', { type: 'button', class: 'danger small', text: 'Revoke', 'aria-label': 'Revoke key ' + k.name });
      btn.addEventListener('click', async () => {
        const yes = await confirmDialog('Revoke the ' + k.family + ' key "' + k.name +
          '"? Every request with it is refused from now on. This cannot be undone.', 'Revoke key');
        if (!yes) {
          btn.focus();
          return;
        }
        try {
          await api('DELETE', path + '/keys/' + encodeURIComponent(k.id));
          acct.keys = acct.keys.filter((x) => x.id !== k.id);
          renderKeys(acct, path);
          showStatus('Key "' + k.name + '" revoked.');
        } catch (err) {
          showStatus('Could not revoke "' + k.name + '": ' + describe(err));
        }
      });
      tbody.append(el('tr', { 'data-key-id': k.id },
        el('td', { text: k.name }), el('td', { text: k.family }), el('td', { text: when(k.created) }),
        el('td', {}, btn)));
    }
    $('#keys-empty').hidden = acct.keys.length > 0;
  }

  function showNewKey(key) {
    const box = $('#new-key');
    $('#new-key-value').value = key;
    $('#copy-result').textContent = '';
    box.hidden = false;
    box.focus();
  }

  async function copyKey() {
    const input = $('#new-key-value');
    try {
      await navigator.clipboard.writeText(input.value);
      $('#copy-result').textContent = 'Copied to the clipboard.';
    } catch (_) {
      input.select();
      $('#copy-result').textContent = 'Copying was refused: the key is selected, press Ctrl+C.';
    }
  }

  async function renderLimits(acct, path) {
    const tbody = $('#limits-table tbody');
    let usage = null;
    try {
      usage = (await api('GET', path + '/usage')).usage;
    } catch (err) {
      showStatus('Usage unavailable: ' + describe(err));
    }
    tbody.replaceChildren();
    for (const fam of ['sol', 'evm']) {
      const lim = acct.limits[fam];
      const u = usage && usage[fam];
      const cell = (w) => {
        if (!u) return el('td', { text: String(lim[w]) + ' limit' });
        return el('td', { 'data-window': w },
          el('meter', { min: '0', max: String(u.limits[w]), value: String(u.used[w]), 'aria-label': FAMILY_NAMES[fam] + ' ' + w + ' usage' }),
          ' ' + u.used[w] + ' / ' + u.limits[w] + ' used',
          el('span', { class: 'muted', text: ' (resets in ' + u.reset_seconds[w] + ' s)' }));
      };
      tbody.append(el('tr', { 'data-family': fam },
        el('th', { scope: 'row', text: FAMILY_NAMES[fam] }), cell('minute'), cell('hour'), cell('week')));
    }
  }

  // ---- the fee-caps editor: the server is the only validator ----

  // capText shows a cap as a plain decimal, never in exponent form.
  function capText(v) {
    if (typeof v === 'string') return v;
    if (typeof v !== 'number') return '';
    return v.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }

  // fillFeeCaps puts a family's effective caps into its form, and keeps
  // each as the field's saved value so that only what is changed is sent.
  function fillFeeCaps(form, caps) {
    for (const input of form.querySelectorAll('input')) {
      const v = caps ? capText(caps[input.name]) : '';
      input.value = v;
      input.dataset.saved = v;
    }
  }

  function clearInvalid(form) {
    for (const bad of form.querySelectorAll('[aria-invalid]')) {
      bad.removeAttribute('aria-invalid');
      bad.removeAttribute('aria-errormessage');
    }
  }

  // saveFeeCaps sends the caps whose text changed, as decimal strings: the
  // API reads them exactly, where a JavaScript number could round them.
  // On a refusal the field the server names in details is marked.
  async function saveFeeCaps(form, path) {
    clearInvalid(form);
    const body = { family: form.dataset.family };
    for (const input of form.querySelectorAll('input')) {
      const v = input.value.trim();
      if (v !== '' && v !== input.dataset.saved) body[input.name] = v;
    }
    if (Object.keys(body).length === 1) {
      formOK(form, 'Nothing changed.');
      return;
    }
    try {
      const saved = await api('PUT', path + '/fee_caps', body);
      fillFeeCaps(form, saved);
      formOK(form, 'Saved the ' + FAMILY_NAMES[form.dataset.family] + ' fee caps.');
    } catch (err) {
      // namedItem, not a selector: details comes from the server and is
      // never put into a query.
      const field = err.details ? form.elements.namedItem(err.details) : null;
      if (field && field.tagName === 'INPUT') {
        field.setAttribute('aria-invalid', 'true');
        field.setAttribute('aria-errormessage', form.querySelector('.error').id);
        field.focus();
      }
      throw err;
    }
  }

  // ---- the strategy editor: the server is the only validator ----

  function strategyRow(entry) {
    const idx = () => Array.prototype.indexOf.call(row.parentNode.children, row) + 1;
    const type = el('select', { name: 'type' });
    for (const t of AUTO_ORDER_TYPES) type.append(el('option', { value: t, text: t, selected: entry.type === t }));
    const num = (name, v) => el('input', { name: name, inputmode: 'decimal', autocomplete: 'off', value: v === undefined || v === null ? '' : String(v), size: '8' });
    const remove = el('button', { type: 'button', class: 'secondary small', text: 'Remove' });
    const row = el('tr', {},
      el('td', {}, type), el('td', {}, num('trigger_pct', entry.trigger_pct)),
      el('td', {}, num('after_seconds', entry.after_seconds)), el('td', {}, num('sell_pct', entry.sell_pct)),
      el('td', {}, remove));
    // Each control is named by its row for screen readers.
    row.labelControls = () => {
      const n = idx();
      type.setAttribute('aria-label', 'Entry ' + n + ' type');
      row.querySelector('[name=trigger_pct]').setAttribute('aria-label', 'Entry ' + n + ' trigger percent');
      row.querySelector('[name=after_seconds]').setAttribute('aria-label', 'Entry ' + n + ' after seconds');
      row.querySelector('[name=sell_pct]').setAttribute('aria-label', 'Entry ' + n + ' sell percent');
      remove.setAttribute('aria-label', 'Remove entry ' + n);
    };
    remove.addEventListener('click', () => {
      const tbody = row.parentNode;
      row.remove();
      relabelStrategy(tbody);
      $('#add-entry').focus();
    });
    return row;
  }

  function relabelStrategy(tbody) {
    for (const r of tbody.children) r.labelControls();
    $('#strategy-empty').hidden = tbody.children.length > 0;
  }

  function renderStrategy(entries, path) {
    const tbody = $('#strategy-table tbody');
    tbody.replaceChildren(...entries.map(strategyRow));
    relabelStrategy(tbody);
    const addBtn = $('#add-entry');
    const form = $('#strategy-form');
    if (!form.dataset.wired) {
      form.dataset.wired = '1';
      addBtn.addEventListener('click', () => {
        const row = strategyRow({ type: 'take_profit' });
        tbody.append(row);
        relabelStrategy(tbody);
        row.querySelector('select').focus();
      });
      form.addEventListener('submit', (ev) => saveStrategy(ev, path));
    }
  }

  // entryValue sends what was typed: a number when it reads as one, the
  // text otherwise (so the server names the field), nothing when empty.
  function entryValue(input) {
    const v = input.value.trim();
    if (v === '') return undefined;
    return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  }

  async function saveStrategy(ev, path) {
    ev.preventDefault();
    const tbody = $('#strategy-table tbody');
    const errLine = $('#strategy-error');
    const okLine = $('#strategy-ok');
    for (const bad of tbody.querySelectorAll('[aria-invalid]')) bad.removeAttribute('aria-invalid');
    errLine.hidden = true;
    okLine.hidden = true;
    const entries = [];
    for (const r of tbody.children) {
      const e = { type: r.querySelector('[name=type]').value };
      for (const f of ['trigger_pct', 'after_seconds', 'sell_pct']) {
        const v = entryValue(r.querySelector('[name=' + f + ']'));
        if (v !== undefined) e[f] = v;
      }
      entries.push(e);
    }
    const btn = ev.target.querySelector('button[type=submit]');
    btn.disabled = true;
    try {
      const saved = await api('PUT', path + '/strategy', { auto_orders: entries });
      renderStrategy(saved.auto_orders, path);
      okLine.textContent = 'Saved ' + saved.auto_orders.length + ' entr' + (saved.auto_orders.length === 1 ? 'y' : 'ies') + '.';
      okLine.hidden = false;
    } catch (err) {
      errLine.textContent = describe(err);
      errLine.hidden = false;
      // details names the field, e.g. auto_orders[1].trigger_pct.
      const m = /^auto_orders\[(\d+)\](?:\.(\w+))?$/.exec(err.details || '');
      const row = m && tbody.children[Number(m[1])];
      if (row) {
        const field = row.querySelector('[name=' + (m[2] || 'type') + ']') || row.querySelector('select');
        field.setAttribute('aria-invalid', 'true');
        field.setAttribute('aria-errormessage', 'strategy-error');
        field.focus();
      }
    } finally {
      btn.disabled = false;
    }
  }

  // ---- local development chains ----

  let devnetChains = null; // null: not asked yet; {}: none

  async function setUpDevnet(acct) {
    if (devnetChains === null) {
      try {
        devnetChains = (await api('GET', '/devnet')).chains;
      } catch (err) {
        devnetChains = {};
      }
    }
    const names = Object.keys(devnetChains);
    if (names.length === 0) return;
    $('#devnet').hidden = false;
    fillFundWallets(acct);
    const tokenChain = $('#token-chain');
    tokenChain.replaceChildren(...['solana'].concat(EVM_CHAINS).filter((n) => n in devnetChains).map((n) => el('option', { value: n, text: n })));
    const venues = () => {
      const vs = tokenChain.value === 'solana' ? ['pump_fun', 'pumpswap'] : ['v2'];
      $('#token-venue').replaceChildren(...vs.map((v) => el('option', { value: v, text: v })));
    };
    tokenChain.addEventListener('change', venues);
    venues();
    $('#fund-wallet').addEventListener('change', fundChains);
    onSubmit($('#fund-form'), async (form) => {
      await api('POST', '/devnet/fund', {
        chain: form.elements.chain.value, address: form.elements.address.value, amount: form.elements.amount.value.trim(),
      });
      const bal = await api('GET', '/devnet/balance?chain=' + encodeURIComponent(form.elements.chain.value) +
        '&address=' + encodeURIComponent(form.elements.address.value));
      formOK(form, 'Funded. Balance on ' + form.elements.chain.value + ': ' + bal.amount + '.');
    });
    onSubmit($('#token-form'), async (form) => {
      const res = await api('POST', '/devnet/tokens', {
        chain: form.elements.chain.value, venue: form.elements.venue.value,
        name: form.elements.name.value.trim(), symbol: form.elements.symbol.value.trim(),
      });
      formOK(form, 'Token ' + res.address + ' created; pool ' + res.pool + '.');
    });
  }

  function fillFundWallets(acct) {
    const sel = $('#fund-wallet');
    if (!sel || devnetChains === null) return;
    const keep = sel.value;
    sel.replaceChildren(...acct.wallets.map((w) =>
      el('option', { value: w.address, 'data-family': w.family, text: w.label + ' (' + w.family + ') ' + w.address, selected: w.address === keep })));
    fundChains();
  }

  function fundChains() {
    const sel = $('#fund-wallet');
    const opt = sel.selectedOptions[0];
    const fam = opt ? opt.dataset.family : 'sol';
    const chains = (fam === 'sol' ? ['solana'] : EVM_CHAINS).filter((c) => c in devnetChains);
    $('#fund-chain').replaceChildren(...chains.map((c) => el('option', { value: c, text: c })));
  }

  // ---- orders ----

  async function renderOrders(id) {
    mount('tpl-orders');
    $('#back-to-account').href = '#/accounts/' + encodeURIComponent(id);
    const load = async () => {
      const data = await api('GET', '/accounts/' + encodeURIComponent(id) + '/orders?limit=50');
      const tbody = $('#orders-table tbody');
      tbody.replaceChildren();
      for (const o of data.orders) {
        const sigs = el('ul', { class: 'sigs' });
        for (const s of o.signatures) {
          // Only http(s) links: the pattern comes from the config, but a
          // javascript: URL must never become clickable.
          const link = /^https?:\/\//.test(s.explorer_url)
            ? el('a', { href: s.explorer_url, target: '_blank', rel: 'noopener noreferrer', text: s.signature })
            : el('code', { text: s.signature });
          sigs.append(el('li', {}, link, ' ', el('span', { class: 'state state-' + s.state, text: s.state })));
        }
        if (o.signatures.length === 0) sigs.append(el('li', { class: 'muted', text: 'none' }));
        const state = el('span', { class: 'state state-' + o.state, text: o.state });
        tbody.append(el('tr', { 'data-order-id': o.order_id },
          el('td', { text: when(o.created_at) }), el('td', {}, el('code', { text: o.order_id })),
          el('td', { text: o.chain }), el('td', { text: o.kind + (o.side ? ' ' + o.side : '') }),
          el('td', {}, state, o.error ? el('div', { class: 'muted', text: o.error.code + ': ' + o.error.message }) : null),
          el('td', {}, sigs)));
      }
      $('#orders-empty').hidden = data.orders.length > 0;
    };
    $('#refresh-orders').addEventListener('click', () => load().catch((err) => showStatus(describe(err))));
    await load();
  }

  // ---- paused venues: a banner on every page ----

  // renderVenues shows the venues the watchers paused, with their reasons
  // and a button that runs a venue's checks and lifts its pause when they
  // pass. It is best effort: a listing that fails leaves the banner as it
  // was, and the page renders anyway.
  async function renderVenues() {
    const box = document.getElementById('venues');
    let data;
    try {
      data = await api('GET', '/venues');
    } catch (_) {
      return;
    }
    const paused = data.venues.filter((v) => v.state === 'paused');
    box.replaceChildren();
    box.hidden = paused.length === 0;
    if (paused.length === 0) return;
    box.append(el('h2', { id: 'venues-title', text: paused.length === 1 ? 'A venue is paused' : paused.length + ' venues are paused' }),
      el('p', { text: 'Their orders are answered 503 VENUE_PAUSED and not charged. A pause lifts by itself once the venue\'s checks pass again.' }));
    const list = el('ul');
    for (const v of paused) {
      const result = el('span', { class: 'error', role: 'alert' });
      const btn = el('button', { type: 'button', class: 'small secondary', text: 'Check and resume' });
      btn.addEventListener('click', async () => {
        btn.disabled = true;
        result.textContent = '';
        try {
          await api('POST', '/venues/' + encodeURIComponent(v.venue) + '/resume?chain=' + encodeURIComponent(v.chain), undefined);
          showStatus(v.venue + ' passed its checks and trades again.');
          await renderVenues();
        } catch (err) {
          result.textContent = describe(err);
        } finally {
          btn.disabled = false;
        }
      });
      list.append(el('li', { 'data-venue': v.venue }, el('strong', { text: v.venue }), ' on ' + v.chain + ': ',
        el('span', { class: 'reason', text: v.reason }), ' ', el('span', { class: 'muted', text: '(checked ' + when(v.checked_at) + ')' }),
        ' ', btn, ' ', result));
    }
    box.append(list);
  }

  // ---- routing ----

  async function render() {
    const hash = location.hash || '#/accounts';
    if (!token()) {
      renderSignIn();
      return;
    }
    nav.hidden = false;
    renderVenues();
    let m;
    try {
      if ((m = /^#\/accounts\/([^/]+)\/orders$/.exec(hash))) {
        await renderOrders(decodeURIComponent(m[1]));
      } else if ((m = /^#\/accounts\/([^/]+)$/.exec(hash))) {
        await renderAccount(decodeURIComponent(m[1]));
      } else {
        if (hash !== '#/accounts') {
          history.replaceState(null, '', '#/accounts');
        }
        document.title = 'tradeapi account manager';
        await renderAccounts();
      }
    } catch (err) {
      if (token()) showStatus(describe(err));
    }
  }

  document.getElementById('signout').addEventListener('click', () => signOut('Signed out. The admin token was removed from this tab.'));
  window.addEventListener('hashchange', () => {
    if (location.hash !== '#/signin') showStatus('');
    render();
  });
  render();
}());
