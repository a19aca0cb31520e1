// The peer of issue 10: react-admin's own way to list a REST resource, nothing tuned.
// One resource, `accounts`, listed with the six columns Moneydesk's accounts list shows by
// default (src/pages/accounts.rs: Name, Account number, Type, Status, Market value, Created),
// ten rows a page like Moneydesk (DEFAULT_PAGE_SIZE), the same page sizes offered
// (src/components/data_table/state.rs PAGE_SIZES). The data comes from ra-data-simple-rest
// at /api on the page's own origin (the benchmark serves both; see bench/peer/README.md).
import {
  Admin,
  ChipField,
  Datagrid,
  DateField,
  List,
  NumberField,
  Pagination,
  Resource,
  SelectField,
  TextField,
} from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';

const dataProvider = simpleRestProvider('/api');

// AccountType's labels (crates/model/src/accounts.rs), as Moneydesk's Type column shows them.
const TYPES = [
  { id: 'API_Customer', name: 'API customer' },
  { id: 'Corporate_Client', name: 'Corporate client' },
  { id: 'Corporate_Holding', name: 'Corporate holding' },
  { id: 'Household', name: 'Household' },
  { id: 'Individual_Client', name: 'Individual client' },
];

const MONEY = { style: 'currency', currency: 'USD' };

const AccountPagination = () => <Pagination rowsPerPageOptions={[10, 25, 50, 100, 500]} />;

// Without the bulk-selection checkboxes: exactly the six data columns (and less work for the peer).
const AccountList = () => (
  <List perPage={10} pagination={<AccountPagination />}>
    <Datagrid bulkActionButtons={false}>
      <TextField source="accountName" label="Name" />
      <TextField source="accountNumber" label="Account number" sortable={false} />
      <SelectField source="accountType" label="Type" choices={TYPES} />
      <ChipField source="accountStatus" label="Status" size="small" />
      <NumberField source="marketValue" label="Market value" options={MONEY} />
      <DateField source="createTime" label="Created" showTime />
    </Datagrid>
  </List>
);

// disableTelemetry: react-admin otherwise requests an image from marmelab.com after its first
// render (once per domain); the benchmark stays offline and measures only the app.
export const App = () => (
  <Admin dataProvider={dataProvider} disableTelemetry>
    <Resource name="accounts" list={AccountList} />
  </Admin>
);
