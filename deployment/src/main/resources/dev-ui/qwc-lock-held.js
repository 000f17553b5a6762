import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/progress-bar';

/**
 * The locks this application holds right now, refreshed every second, and wait and hold statistics per lock name.
 */
export class QwcLockHeld extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 0.5em; }
        h4 { margin: 0; }
        .empty { color: var(--lumo-secondary-text-color); }
    `;

    static properties = {
        _held: { state: true },
        _statistics: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 1000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.getHeldLocks().then(response => { this._held = response.result; });
        this.jsonRpc.getStatistics().then(response => { this._statistics = response.result; });
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
            </vaadin-grid>`;
    }
}
customElements.define('qwc-lock-held', QwcLockHeld);
