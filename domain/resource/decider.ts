import type { Decider } from '../decider.js';
import type { ResourceCommand } from './commands.js';
import { create } from './create.js';
import type { ResourceEvent } from './events.js';
import { active, createRevision, deleteRevision, publishRevision, updateRevision } from './revisions.js';
import { evolve, type ResourceState } from './state.js';
import { cancelSchedule, publishScheduled, schedulePublish } from './schedule.js';
import { upsert } from './upsert.js';

/** One resource and its revisions. */

export type { CreateResource, DeleteResource, OwnerCheck, ResourceCommand, UpsertResource } from './commands.js';
export type { Validation } from './content.js';
export type { ResourceState } from './state.js';

export const resource: Decider<ResourceState, ResourceCommand, ResourceEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateResource':
        return create(command, state);
      case 'UpsertResource':
        return upsert(command, state);
      case 'UpdateMetadata': {
        active(state, command.data.folder);
        if (command.data.name === undefined) return [];
        return [{ type: 'ResourceUpdated', data: { ...command.data, name: command.data.name } }];
      }
      case 'CreateRevision':
        return createRevision(command, state);
      case 'PublishRevision':
        return publishRevision(command, state);
      case 'DeleteRevision':
        return deleteRevision(command, state);
      case 'UpdateRevision':
        return updateRevision(command, state);
      case 'SchedulePublish':
        return schedulePublish(command, state);
      case 'CancelSchedule':
        return cancelSchedule(command, state);
      case 'PublishScheduled':
        return publishScheduled(command, state);
      case 'DeleteResource': {
        const current = active(state, command.data.folder);
        return [
          {
            type: 'ResourceDeleted',
            data: {
              ...command.data,
              external_id: current.external_id,
              revisions: current.live.map((r) => r.key),
              snapshot: {
                name: current.name,
                content_type: 'document',
                document_id: current.key,
                resource_owner_key: current.resource_owner,
                current_revision_key: current.current,
              },
            },
          },
        ];
      }
    }
  },
};
