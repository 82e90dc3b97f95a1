/** Public entry of the durable local store (IndexedDB): delivered items, decisions, pulls. */
export {
  ConsoleDb,
  localDb,
  setDatabaseForTests,
  type DeliveryVia,
  type ItemKey,
  type PullRecord,
  type StoredDecision,
  type StoredItem,
  type StoredLot,
} from './db';
export { readSetting, updateSetting, writeSetting } from './settings';
export { createLot, listLots, readLot, updateLot } from './lots';
export {
  createChangeFeed,
  installLocalChanges,
  localChanges,
  localKey,
  readsChange,
  touches,
  type ChangeFeed,
  type LocalChange,
  type LocalChangeHere,
  type LocalTable,
} from './change-feed';
export {
  closeWhereStanding,
  countScope,
  itemsAfter,
  listGroupAfter,
  countItems,
  deleteScope,
  deleteSubscriptionItems,
  heldIds,
  listItems,
  readPayloads,
  saveDelivered,
  setOpen,
  subscribeItemsInFlight,
  type Delivered,
  type ItemsInFlight,
  type OpenFlag,
  type SaveResult,
  type StandingDecision,
} from './items';
export { recordPull, unrecoveredLosses } from './pulls';
export { ensureRoom, formatBytes, isStorageFailure, requestPersistence, StorageFullError, storageUse, type StorageUse } from './quota';
export { summaryOfLive, summaryOfSimulated, type ItemSummary } from './summary';
