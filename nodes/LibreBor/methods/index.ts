export { searchUnreadAlerts, searchWatchedCompanies } from './listSearch';
export { searchRegistryCompanies, searchRegistryPeople } from './registrySearch';
