import { EventEmitter } from 'node:events';

/** Wakes in-process workers as soon as a task is queued; other processes poll the table. */
export class TaskEvents extends EventEmitter {
  queued() {
    this.emit('queued');
  }
}
