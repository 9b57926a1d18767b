CREATE TABLE "report_destinations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_destinations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"enterprise_id" bigint NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"port" integer DEFAULT 22 NOT NULL,
	"username" text NOT NULL,
	"sealed_password" text NOT NULL,
	"directory" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"report_id" bigint,
	"program_id" bigint NOT NULL,
	"kind" text DEFAULT 'report' NOT NULL,
	"patient_id" bigint,
	"requested_by" bigint NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"file_key" text,
	"file_name" text,
	"bytes" bigint,
	"rows" integer,
	"delivery" text DEFAULT 'none' NOT NULL,
	"delivery_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "report_runs_kind_check" CHECK ("report_runs"."kind" IN ('report', 'patient_pdf', 'patients_pdf', 'patients_csv')),
	CONSTRAINT "report_runs_status_check" CHECK ("report_runs"."status" IN ('queued', 'running', 'done', 'failed', 'cancelled')),
	CONSTRAINT "report_runs_delivery_check" CHECK ("report_runs"."delivery" IN ('none', 'pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"audience" text NOT NULL,
	"format" text NOT NULL,
	"period" text NOT NULL,
	"start_date" date,
	"end_date" date,
	"recurrence" text DEFAULT 'none' NOT NULL,
	"recurrence_state" text DEFAULT 'running' NOT NULL,
	"next_run_at" timestamp with time zone,
	"destination_id" bigint,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_audience_check" CHECK ("reports"."audience" IN ('care', 'pharma')),
	CONSTRAINT "reports_recurrence_check" CHECK ("reports"."recurrence" IN ('none', 'daily', 'weekly', 'monthly')),
	CONSTRAINT "reports_state_check" CHECK ("reports"."recurrence_state" IN ('running', 'paused', 'stopped'))
);
--> statement-breakpoint
ALTER TABLE "report_destinations" ADD CONSTRAINT "report_destinations_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_destinations" ADD CONSTRAINT "report_destinations_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_requested_by_admins_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_destination_id_report_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."report_destinations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_destinations_enterprise_idx" ON "report_destinations" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "report_runs_report_idx" ON "report_runs" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "report_runs_program_kind_idx" ON "report_runs" USING btree ("program_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "report_runs_queue_idx" ON "report_runs" USING btree ("created_at") WHERE "report_runs"."status" = 'queued' OR "report_runs"."delivery" = 'pending';--> statement-breakpoint
CREATE INDEX "reports_program_idx" ON "reports" USING btree ("program_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_due_idx" ON "reports" USING btree ("next_run_at") WHERE "reports"."recurrence" <> 'none' AND "reports"."recurrence_state" = 'running';