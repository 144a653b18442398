import { type DbExecutor, type ConversationTable, type ConversationTurnTable, type PageQuery, paginate } from '../../platform/db/index.ts';

export type ConversationRow = ConversationTable;
export type TurnRow = ConversationTurnTable;

export const conversationRepository = {
  async insert(db: DbExecutor, row: ConversationRow): Promise<void> {
    await db.insertInto('conversations').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('conversations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string) {
    return db.selectFrom('conversations').selectAll().where('tenant_id', '=', tenantId);
  },
  listPage(db: DbExecutor, tenantId: string, page: PageQuery) {
    return paginate(this.listQuery(db, tenantId), 'id', page);
  },
  async touch(db: DbExecutor, id: string, turnCount: number, updatedAt: string): Promise<void> {
    await db.updateTable('conversations').set({ turn_count: turnCount, updated_at: updatedAt }).where('id', '=', id).execute();
  },
  async insertTurn(db: DbExecutor, row: TurnRow): Promise<void> {
    await db.insertInto('conversation_turns').values(row).execute();
  },
  async updateTurn(db: DbExecutor, id: string, patch: Partial<TurnRow>): Promise<void> {
    await db.updateTable('conversation_turns').set(patch).where('id', '=', id).execute();
  },
  listTurns(db: DbExecutor, conversationId: string) {
    return db.selectFrom('conversation_turns').selectAll().where('conversation_id', '=', conversationId).orderBy('seq', 'asc').execute();
  },
  /** The last turns of a conversation, oldest first (the planner's memory for follow-ups). */
  async listRecentTurns(db: DbExecutor, conversationId: string, limit: number) {
    const rows = await db
      .selectFrom('conversation_turns')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  },
};
