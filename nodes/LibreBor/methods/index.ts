export { searchUnreadAlerts, searchWatchedCompanies } from './listSearch';
