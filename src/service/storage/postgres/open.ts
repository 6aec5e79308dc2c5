import type { Storage, StorageOptions } from '../open';

export async function openPostgresStorage(_opts: StorageOptions & { databaseUrl: string }): Promise<Storage> {
  throw new Error('PostgreSQL storage is not available yet');
}
