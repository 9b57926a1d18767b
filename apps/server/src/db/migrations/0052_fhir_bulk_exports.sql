CREATE TABLE "fhir_bulk_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" bigint,
	"client_id" bigint,
	"program_id" bigint,
	"group_id" bigint,
	"types" text[] NOT NULL,
	"since" timestamp with time zone,
	"request" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"output" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"written" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"transaction_time" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fhir_bulk_exports_status_check" CHECK ("fhir_bulk_exports"."status" IN ('queued', 'running', 'completed', 'failed')),
	CONSTRAINT "fhir_bulk_exports_owner_check" CHECK (num_nonnulls("fhir_bulk_exports"."admin_id", "fhir_bulk_exports"."client_id") = 1)
);
--> statement-breakpoint
ALTER TABLE "fhir_bulk_exports" ADD CONSTRAINT "fhir_bulk_exports_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fhir_bulk_exports" ADD CONSTRAINT "fhir_bulk_exports_client_id_fhir_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."fhir_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fhir_bulk_exports" ADD CONSTRAINT "fhir_bulk_exports_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fhir_bulk_exports" ADD CONSTRAINT "fhir_bulk_exports_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fhir_bulk_exports_status_idx" ON "fhir_bulk_exports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "fhir_bulk_exports_expiry_idx" ON "fhir_bulk_exports" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "fhir_bulk_exports_admin_idx" ON "fhir_bulk_exports" USING btree ("admin_id");--> statement-breakpoint
CREATE INDEX "fhir_bulk_exports_client_idx" ON "fhir_bulk_exports" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fhir_bulk_exports_admin_active_unique" ON "fhir_bulk_exports" USING btree ("admin_id") WHERE "fhir_bulk_exports"."status" IN ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "fhir_bulk_exports_client_active_unique" ON "fhir_bulk_exports" USING btree ("client_id") WHERE "fhir_bulk_exports"."status" IN ('queued', 'running');