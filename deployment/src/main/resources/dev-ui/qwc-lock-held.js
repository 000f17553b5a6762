import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';
import '@vaadin/button';
import '@vaadin/confirm-dialog';
import '@vaadin/progress-bar';

/** How many locks one read of the store lists: a page, never the whole key space. */
const PAGE_SIZE = 50;

/**
 * The locks this application holds right now, refreshed every second, and wait and hold statistics per lock name;
 * then the locks every instance holds in the store, read a page at a time on request ("More"), each with a forced
 * release, after a confirmation, where the application runs in dev mode.
 */
export class QwcLockHeld extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 0.5em; }
        h4 { margin: 0; }
        .empty { color: var(--lumo-secondary-text-color); }
        .error { color: var(--lumo-error-text-color); }
        .actions { display: flex; gap: 0.5em; align-items: center; }
    `;

    static properties = {
        _held: { state: true },
        _statistics: { state: true },
        _store: { state: true },
        _next: { state: true },
        _forceRelease: { state: true },
        _storeError: { state: true },
        _reading: { state: true },
        _releasing: { state: true },
        _released: { state: true }
    };

    constructor() {
        super();
        this._store = [];
        this._next = null;
        this._forceRelease = false;
        this._reading = false;
        this._releasing = null;
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 1000);
        this._readStore(true);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.getHeldLocks().then(response => { this._held = response.result; });
        this.jsonRpc.getStatistics().then(response => { this._statistics = response.result; });
    }

    /** Reads the first page of the store's locks again, or the next one after those shown. */
    _readStore(first) {
        this._reading = true;
        this.jsonRpc.getStoreLocks({ cursor: first ? null : this._next, limit: PAGE_SIZE }).then(response => {
            const page = response.result;
            this._store = first ? page.locks : [...this._store, ...page.locks];
            this._next = page.next;
            this._forceRelease = page.forceRelease;
            this._storeError = null;
        }).catch(error => {
            this._storeError = 'Could not list the locks of the store: ' + this._message(error);
        }).finally(() => { this._reading = false; });
    }

    _release() {
        const key = this._releasing;
        this._releasing = null;
        this.jsonRpc.forceRelease({ key: key }).then(response => {
            this._released = response.result ? `Released ${key}.` : `${key} was free already.`;
            this._readStore(true);
        }).catch(error => {
            this._storeError = `Could not release ${key}: ` + this._message(error);
        });
    }

    _message(error) {
        return (error && error.error && error.error.message) || (error && error.message) || String(error);
    }

    render() {
        if (!this._held || !this._statistics) {
            return html`<vaadin-progress-bar indeterminate></vaadin-progress-bar>`;
        }
        return html`
            <h4>Held now</h4>
            ${this._held.length === 0
                ? html`<span class="empty">This application holds no lock.</span>`
                : html`<vaadin-grid .items="${this._held}" all-rows-visible theme="compact row-stripes">
                        <vaadin-grid-column path="key" header="Key" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="name" header="Name" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="token" header="Fencing token" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="since" header="Held since" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="waitedMillis" header="Waited (ms)" auto-width></vaadin-grid-column>
                    </vaadin-grid>`}
            <h4>Statistics since startup</h4>
            <vaadin-grid .items="${this._statistics}" all-rows-visible theme="compact row-stripes">
                <vaadin-grid-column path="name" header="Name" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="acquired" header="Acquired" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="notAcquired" header="Not acquired" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="averageWaitMillis" header="Avg wait (ms)" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="longestWaitMillis" header="Max wait (ms)" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="averageHoldMillis" header="Avg hold (ms)" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="longestHoldMillis" header="Max hold (ms)" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="leasesExpired" header="Leases expired" auto-width></vaadin-grid-column>
            </vaadin-grid>
            <h4>Held in the store, by every instance</h4>
            ${this._renderStore()}`;
    }

    _renderStore() {
        return html`
            ${this._storeError ? html`<span class="error">${this._storeError}</span>` : ''}
            ${this._released ? html`<span class="empty">${this._released}</span>` : ''}
            ${this._store.length === 0
                ? html`<span class="empty">${this._reading ? 'Reading the store...'
                        : this._next ? 'None in the part of the store read so far.' : 'No lock is held in the store.'}</span>`
                : html`<vaadin-grid class="store" .items="${this._store}" all-rows-visible theme="compact row-stripes">
                        <vaadin-grid-column path="key" header="Key" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="holder" header="Holder" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="owner" header="Acquisition (owner id)" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="token" header="Fencing token" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="since" header="Since" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="leaseLeft" header="Lease left" auto-width></vaadin-grid-column>
                        <vaadin-grid-column path="waiters" header="Waiters in line" auto-width></vaadin-grid-column>
                        ${this._forceRelease ? html`<vaadin-grid-column header="Force release" auto-width
                                ${columnBodyRenderer(lock => html`<vaadin-button theme="small error"
                                        @click="${() => { this._released = null; this._releasing = lock.key; }}"
                                        >Release</vaadin-button>`, [])}></vaadin-grid-column>` : ''}
                    </vaadin-grid>`}
            <div class="actions">
                <vaadin-button theme="small" ?disabled="${this._reading}" @click="${() => this._readStore(true)}"
                        >Read again</vaadin-button>
                ${this._next ? html`<vaadin-button theme="small" class="more" ?disabled="${this._reading}"
                        @click="${() => this._readStore(false)}">More</vaadin-button>` : ''}
            </div>
            <vaadin-confirm-dialog header="Force the release of ${this._releasing}?" cancel-button-visible
                    confirm-text="Release" confirm-theme="error primary" .opened="${this._releasing !== null}"
                    @confirm="${() => this._release()}" @cancel="${() => { this._releasing = null; }}"
                    @opened-changed="${event => { if (!event.detail.value) { this._releasing = null; } }}"
                    >Its holder keeps running as if it held the lock until its next renewal or release fails, and
                    another acquisition may get the lock now.</vaadin-confirm-dialog>`;
    }
}
customElements.define('qwc-lock-held', QwcLockHeld);
