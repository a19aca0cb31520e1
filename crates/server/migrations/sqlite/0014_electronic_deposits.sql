-- Electronic deposits (ACH pulls): what their NACHA entry needs beyond the shared columns (the
-- vendor's routing and account are bank_routing_number and bank_account_number; the effective
-- date is schedule_date). NULL for the other kinds.
ALTER TABLE deposits ADD COLUMN ach_account_type TEXT;
ALTER TABLE deposits ADD COLUMN ach_vendor_name TEXT;
ALTER TABLE deposits ADD COLUMN ach_entry_description TEXT;
