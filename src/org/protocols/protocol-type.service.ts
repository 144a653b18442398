import { type Actor, type Principal, assertEveryLocation } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, newId } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { BUILTIN_PROTOCOLS, findBuiltinProtocol } from './protocol-catalogue.ts';
import { protocolRepository, type ProtocolTypeRow } from './protocol.repository.ts';
import type { CreateProtocolTypeBodyT, ProtocolTypeView } from './protocol.schemas.ts';

function toTypeView(r: ProtocolTypeRow): ProtocolTypeView {
  return {
    id: r.id,
    object: 'protocol_type',
    name: r.name,
    description: r.description,
    steps: JSON.parse(r.steps) as string[],
    builtin: false,
    created_at: r.created_at,
  };
}

/** The protocol catalogue an organization triggers from: built-ins plus its own types. */
export class ProtocolTypeService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; audit: AuditService }) {}

  async list(principal: Principal) {
    const builtins: ProtocolTypeView[] = BUILTIN_PROTOCOLS.map((p) => ({
      id: null,
      object: 'protocol_type',
      name: p.name,
      description: p.description,
      steps: [...p.steps],
      builtin: true,
      created_at: null,
    }));
    const own = (await protocolRepository.listTypes(this.deps.database.db, principal.tenantId)).map(toTypeView);
    return { object: 'list' as const, data: [...builtins, ...own], has_more: false };
  }

  async create(principal: Principal, actor: Actor, body: CreateProtocolTypeBodyT): Promise<ProtocolTypeView> {
    assertEveryLocation(principal, 'a protocol type');
    const now = this.deps.clock.now();
    const row: ProtocolTypeRow = {
      id: newId('ptype', now),
      tenant_id: principal.tenantId,
      name: body.name,
      description: body.description ?? null,
      steps: JSON.stringify(body.steps),
      created_at: toIso(now),
    };
    await this.deps.database.withWriteLock(async (trx) => {
      if (findBuiltinProtocol(body.name) || (await protocolRepository.findType(trx, principal.tenantId, body.name))) {
        throw new VigilError('protocol_type_exists', `A protocol type named "${body.name}" already exists.`, { param: 'name' });
      }
      await protocolRepository.insertType(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'protocol_type.created', resourceType: 'protocol_type', resourceId: row.id, data: { after: toTypeView(row) } },
      ]);
    });
    return toTypeView(row);
  }

  /** The steps of a type the organization may trigger; 400 unknown_protocol_type otherwise. */
  async resolve(db: DbExecutor, tenantId: string, name: string): Promise<{ name: string; steps: string[] }> {
    const builtin = findBuiltinProtocol(name);
    if (builtin) return { name, steps: [...builtin.steps] };
    const own = await protocolRepository.findType(db, tenantId, name);
    if (own) return { name, steps: JSON.parse(own.steps) as string[] };
    throw new VigilError(
      'unknown_protocol_type',
      `protocol_type: "${name}" is neither built in (${BUILTIN_PROTOCOLS.map((p) => p.name).join(', ')}) nor defined by this organization (POST /v1/protocols).`,
      { param: 'protocol_type' },
    );
  }
}
