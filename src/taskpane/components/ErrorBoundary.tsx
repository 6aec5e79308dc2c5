/** Never a blank pane: a render error becomes a sentence and a way back. */
import { Component, type ComponentChildren } from 'preact';
import { describeError } from '../../api/errors';

interface State {
  error: unknown;
}

export class ErrorBoundary extends Component<{ name: string; children: ComponentChildren }, State> {
  override state: State = { error: null };

  override componentDidCatch(error: unknown) {
    this.setState({ error });
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div class="qf-msg qf-msg-error" role="alert">
        <p>
          The {this.props.name} pane ran into a problem and stopped: {describeError(this.state.error)}
        </p>
        <p>What you typed in the other panes is kept.</p>
        <button type="button" class="qf-btn" onClick={() => this.setState({ error: null })}>
          Show the {this.props.name} pane again
        </button>
      </div>
    );
  }
}
