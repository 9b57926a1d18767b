CREATE TABLE "billing_supply_starts" (
	"patient_id" bigint PRIMARY KEY NOT NULL,
	"program_id" bigint NOT NULL,
	"supply_start" date NOT NULL,
	"reason" text NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_supply_starts" ADD CONSTRAINT "billing_supply_starts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_supply_starts" ADD CONSTRAINT "billing_supply_starts_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_supply_starts_program_idx" ON "billing_supply_starts" USING btree ("program_id");