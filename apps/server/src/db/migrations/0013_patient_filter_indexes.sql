CREATE INDEX "patients_program_assignee_idx" ON "patients" USING btree ("program_id","assigned_admin_id");--> statement-breakpoint
CREATE INDEX "patients_program_sex_idx" ON "patients" USING btree ("program_id","sex");--> statement-breakpoint
CREATE INDEX "patients_program_state_idx" ON "patients" USING btree ("program_id","state");--> statement-breakpoint
CREATE INDEX "patients_program_physician_idx" ON "patients" USING btree ("program_id","physician_id");