import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/progress-bar';

/**
 * The declared leadership groups, refreshed every two seconds: whether this instance takes part and leads, since when
 * and in which term, and who leads as the store says.
 */
export class QwcLockLeadership extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 0.5em; }
        .empty { color: var(--lumo-secondary-text-color); }
        .error { color: var(--lumo-error-text-color); }
    `;

    static properties = {
        _groups: { state: true },
        _error: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 2000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.getLeadership().then(response => {
            this._groups = response.result.map(group => ({
                ...group,
                takesPart: group.joined ? 'yes' : 'no',
                leads: group.leading ? 'yes' : 'no',
                shownTerm: group.leading ? group.term : '',
                shownSince: group.since || ''
            }));
            this._error = null;
        }).catch(error => {
            this._error = 'Could not read the leadership groups: '
                + ((error && error.error && error.error.message) || (error && error.message) || String(error));
        });
    }

    render() {
        if (this._error) {
            return html`<span class="error">${this._error}</span>`;
        }
        if (!this._groups) {
            return html`<vaadin-progress-bar indeterminate></vaadin-progress-bar>`;
        }
        if (this._groups.length === 0) {
            return html`<span class="empty">No leadership group is declared
                    (quarkus.lock.leadership."name".enabled=true).</span>`;
        }
        return html`<vaadin-grid .items="${this._groups}" all-rows-visible theme="compact row-stripes">
                <vaadin-grid-column path="group" header="Group" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="takesPart" header="Takes part" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="leads" header="Leads" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="shownTerm" header="Term" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="shownSince" header="Leading since" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="leader" header="Leader, as the store says" auto-width></vaadin-grid-column>
            </vaadin-grid>`;
    }
}
customElements.define('qwc-lock-leadership', QwcLockLeadership);
