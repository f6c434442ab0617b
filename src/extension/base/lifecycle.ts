/** What VS Code calls a Disposable, structurally (this module stays free of `vscode`). */
export interface IDisposable {
  dispose(): void;
}

/**
 * Owner of disposables: everything a class registers is disposed with it, and anything
 * registered after disposal is disposed at once (so a late async registration cannot leak).
 */
export abstract class Disposable implements IDisposable {
  private readonly disposables = new Set<IDisposable>();
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected _register<T extends IDisposable>(disposable: T): T {
    if (this.disposed) {
      disposable.dispose();
    } else {
      this.disposables.add(disposable);
    }
    return disposable;
  }

  /** Stops tracking a disposable disposed elsewhere (e.g. a terminal the user closed). */
  protected _unregister(disposable: IDisposable): void {
    this.disposables.delete(disposable);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const d of [...this.disposables].reverse()) {
      try {
        d.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    this.disposables.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Errors while disposing');
  }
}

/** A bag of disposables for places where a class would be overkill. */
export class DisposableStore extends Disposable {
  add<T extends IDisposable>(disposable: T): T {
    return this._register(disposable);
  }
}

export function toDisposable(fn: () => void): IDisposable {
  return { dispose: fn };
}
