import { EventEmitter } from 'node:events';

/**
 * Tells this process's worker at once that a task was queued, or that tasks were cancelled;
 * workers of other processes find out from the table (worker.ts).
 */
export class TaskEvents extends EventEmitter<{ queued: []; cancelled: [taskIds: string[]] }> {
  queued() {
    this.emit('queued');
  }

  cancelled(taskIds: string[]) {
    this.emit('cancelled', taskIds);
  }
}
