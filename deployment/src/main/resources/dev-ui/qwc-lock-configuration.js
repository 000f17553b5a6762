import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import '@vaadin/grid';
import '@vaadin/progress-bar';

/**
 * The lock store in use and the settings the locks run with.
 */
export class QwcLockConfiguration extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`:host { display: block; padding: 0.5em; }`;

    static properties = {
        _rows: { state: true }
    };

    connectedCallback() {
        super.connectedCallback();
        this.jsonRpc.getConfiguration().then(response => {
            this._rows = Object.entries(response.result).map(([property, value]) => ({ property, value }));
        });
    }

    render() {
        if (!this._rows) {
            return html`<vaadin-progress-bar indeterminate></vaadin-progress-bar>`;
        }
        return html`<vaadin-grid .items="${this._rows}" all-rows-visible theme="compact row-stripes">
                <vaadin-grid-column path="property" header="Setting" auto-width></vaadin-grid-column>
                <vaadin-grid-column path="value" header="Value" auto-width></vaadin-grid-column>
            </vaadin-grid>`;
    }
}
customElements.define('qwc-lock-configuration', QwcLockConfiguration);
