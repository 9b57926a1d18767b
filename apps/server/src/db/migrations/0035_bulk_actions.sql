CREATE TABLE "bulk_action_patients" (
	"bulk_action_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"processed_at" timestamp with time zone,
	CONSTRAINT "bulk_action_patients_bulk_action_id_patient_id_pk" PRIMARY KEY("bulk_action_id","patient_id"),
	CONSTRAINT "bulk_action_patients_outcome_check" CHECK ("bulk_action_patients"."outcome" IN ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "bulk_actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bulk_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"job_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"program_id" bigint NOT NULL,
	"action" text NOT NULL,
	"params" jsonb NOT NULL,
	"note" text,
	"state" text DEFAULT 'assigned' NOT NULL,
	"created_by" bigint NOT NULL,
	"decided_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	CONSTRAINT "bulk_actions_job_id_unique" UNIQUE("job_id"),
	CONSTRAINT "bulk_actions_state_check" CHECK ("bulk_actions"."state" IN ('assigned', 'approved', 'cancelled')),
	CONSTRAINT "bulk_actions_action_check" CHECK ("bulk_actions"."action" IN ('patient_status', 'billing_status', 'add_to_cohort', 'assign_admin'))
);
--> statement-breakpoint
ALTER TABLE "bulk_action_patients" ADD CONSTRAINT "bulk_action_patients_bulk_action_id_bulk_actions_id_fk" FOREIGN KEY ("bulk_action_id") REFERENCES "public"."bulk_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_action_patients" ADD CONSTRAINT "bulk_action_patients_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD CONSTRAINT "bulk_actions_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD CONSTRAINT "bulk_actions_decided_by_admins_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_actions_program_idx" ON "bulk_actions" USING btree ("program_id","created_at");