CREATE TABLE "survey_assignments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_assignments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"survey_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"scheduled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"admin_assign" boolean DEFAULT false NOT NULL,
	"reassign_after_days" integer,
	"assigned_by" bigint,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"unassigned_at" timestamp with time zone,
	"unassigned_by" bigint,
	"previous_id" bigint,
	CONSTRAINT "survey_assignments_status_check" CHECK ("survey_assignments"."status" IN ('pending', 'completed', 'unassigned'))
);
--> statement-breakpoint
CREATE TABLE "survey_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"assignment_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"admin_id" bigint,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_folders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_folders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_questions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_questions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"survey_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"kind" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"min" double precision,
	"max" double precision,
	"required" boolean DEFAULT true NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "survey_questions_kind_check" CHECK ("survey_questions"."kind" IN ('single', 'multiple', 'number', 'text'))
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_responses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"assignment_id" bigint NOT NULL,
	"survey_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"score" double precision,
	"max_score" double precision DEFAULT 0 NOT NULL,
	"triggers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recorded_by" bigint,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "survey_responses_status_check" CHECK ("survey_responses"."status" IN ('in_progress', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "survey_triggers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "survey_triggers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"survey_id" bigint NOT NULL,
	"question_id" bigint,
	"kind" text NOT NULL,
	"value" double precision,
	"is_active" boolean DEFAULT false NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_triggers_kind_check" CHECK (("survey_triggers"."kind" = 'score' AND "survey_triggers"."question_id" IS NULL) OR ("survey_triggers"."kind" = 'question' AND "survey_triggers"."question_id" IS NOT NULL)),
	CONSTRAINT "survey_triggers_active_value" CHECK (NOT "survey_triggers"."is_active" OR "survey_triggers"."value" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "surveys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"folder_id" bigint,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"url" text,
	"analyse_url" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "survey_assignments" ADD CONSTRAINT "survey_assignments_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_assignments" ADD CONSTRAINT "survey_assignments_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_assignments" ADD CONSTRAINT "survey_assignments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_assignments" ADD CONSTRAINT "survey_assignments_assigned_by_admins_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_assignments" ADD CONSTRAINT "survey_assignments_unassigned_by_admins_id_fk" FOREIGN KEY ("unassigned_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_events" ADD CONSTRAINT "survey_events_assignment_id_survey_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."survey_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_events" ADD CONSTRAINT "survey_events_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_folders" ADD CONSTRAINT "survey_folders_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_folders" ADD CONSTRAINT "survey_folders_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_assignment_id_survey_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."survey_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_recorded_by_admins_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_triggers" ADD CONSTRAINT "survey_triggers_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_triggers" ADD CONSTRAINT "survey_triggers_question_id_survey_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."survey_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_triggers" ADD CONSTRAINT "survey_triggers_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_folder_id_survey_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."survey_folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_assignments_pending_key" ON "survey_assignments" USING btree ("patient_id","survey_id") WHERE "survey_assignments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "survey_assignments_patient_idx" ON "survey_assignments" USING btree ("patient_id","id");--> statement-breakpoint
CREATE INDEX "survey_assignments_program_idx" ON "survey_assignments" USING btree ("program_id","status","scheduled_at");--> statement-breakpoint
CREATE INDEX "survey_assignments_survey_idx" ON "survey_assignments" USING btree ("survey_id","status");--> statement-breakpoint
CREATE INDEX "survey_events_assignment_idx" ON "survey_events" USING btree ("assignment_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_folders_name_key" ON "survey_folders" USING btree ("program_id",lower("name"));--> statement-breakpoint
CREATE INDEX "survey_questions_survey_idx" ON "survey_questions" USING btree ("survey_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_assignment_key" ON "survey_responses" USING btree ("assignment_id");--> statement-breakpoint
CREATE INDEX "survey_responses_patient_idx" ON "survey_responses" USING btree ("patient_id","id");--> statement-breakpoint
CREATE INDEX "survey_responses_completed_idx" ON "survey_responses" USING btree ("program_id","completed_at") WHERE "survey_responses"."status" = 'completed';--> statement-breakpoint
CREATE UNIQUE INDEX "survey_triggers_score_key" ON "survey_triggers" USING btree ("survey_id") WHERE "survey_triggers"."kind" = 'score';--> statement-breakpoint
CREATE UNIQUE INDEX "survey_triggers_question_key" ON "survey_triggers" USING btree ("question_id") WHERE "survey_triggers"."kind" = 'question';--> statement-breakpoint
CREATE UNIQUE INDEX "surveys_name_key" ON "surveys" USING btree ("program_id",lower("name"));--> statement-breakpoint
CREATE INDEX "surveys_folder_idx" ON "surveys" USING btree ("folder_id");