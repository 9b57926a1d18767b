CREATE TABLE "admins" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "admins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"title" text,
	"about" text,
	"phone_number" text,
	"picture" text,
	"status" text DEFAULT 'online' NOT NULL,
	"password_hash" text NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"must_change_password" boolean DEFAULT false NOT NULL,
	"email_confirmed_at" timestamp with time zone,
	"hipaa_consented_at" timestamp with time zone,
	"tz" text,
	"language" text DEFAULT 'en' NOT NULL,
	"theme" text DEFAULT 'light' NOT NULL,
	"mfa_secret" text,
	"mfa_enabled" boolean DEFAULT false NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admins_language_check" CHECK ("admins"."language" IN ('en', 'de', 'fr', 'pt')),
	CONSTRAINT "admins_theme_check" CHECK ("admins"."theme" IN ('light', 'dark', 'semi-dark'))
);
--> statement-breakpoint
CREATE TABLE "auth_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"admin_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_codes_purpose_check" CHECK ("auth_codes"."purpose" IN ('reset_password', 'confirm_registration'))
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"realm" text NOT NULL,
	"admin_id" bigint,
	"controller_id" bigint,
	"scope" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	CONSTRAINT "auth_sessions_realm_check" CHECK ("auth_sessions"."realm" IN ('staff', 'controller')),
	CONSTRAINT "auth_sessions_scope_check" CHECK ("auth_sessions"."scope" IN ('full', 'hipaa')),
	CONSTRAINT "auth_sessions_owner_check" CHECK (("auth_sessions"."realm" = 'staff' AND "auth_sessions"."admin_id" IS NOT NULL) OR ("auth_sessions"."realm" = 'controller' AND "auth_sessions"."controller_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "controller_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "controller_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"admin_id" bigint NOT NULL,
	"session_id" bigint,
	"login_at" timestamp with time zone DEFAULT now() NOT NULL,
	"logout_at" timestamp with time zone,
	"ip" text,
	"meta" jsonb
);
--> statement-breakpoint
CREATE TABLE "rate_limit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rate_limit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone_number" text,
	"dob" date,
	"sex" text DEFAULT 'unknown' NOT NULL,
	"race" text,
	"ethnicity" text,
	"state" text,
	"city" text,
	"status" text DEFAULT 'active' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"assigned_admin_id" bigint,
	"follow_up_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patients_sex_check" CHECK ("patients"."sex" IN ('female', 'male', 'other', 'unknown')),
	CONSTRAINT "patients_status_check" CHECK ("patients"."status" IN ('active', 'inactive', 'pending', 'discharged'))
);
--> statement-breakpoint
CREATE TABLE "program_patient_counts" (
	"program_id" bigint PRIMARY KEY NOT NULL,
	"patients" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_enterprise_roles" (
	"admin_id" bigint NOT NULL,
	"enterprise_id" bigint NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_enterprise_roles_admin_id_enterprise_id_role_pk" PRIMARY KEY("admin_id","enterprise_id","role"),
	CONSTRAINT "admin_enterprise_roles_role_check" CHECK ("admin_enterprise_roles"."role" = 'enterprise_admin')
);
--> statement-breakpoint
CREATE TABLE "admin_program_roles" (
	"admin_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_program_roles_admin_id_program_id_role_pk" PRIMARY KEY("admin_id","program_id","role"),
	CONSTRAINT "admin_program_roles_role_check" CHECK ("admin_program_roles"."role" IN ('admin', 'physician', 'care_coordinator', 'enterprise_admin', 'pharma', 'pharmacy') AND "admin_program_roles"."role" <> 'enterprise_admin')
);
--> statement-breakpoint
CREATE TABLE "enterprises" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprises_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprises_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "page_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "page_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"admin_id" bigint NOT NULL,
	"program_id" bigint,
	"path" text NOT NULL,
	"time_s" bigint NOT NULL,
	"name" text,
	"subject_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "programs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"enterprise_id" bigint,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"type" text DEFAULT 'monitoring' NOT NULL,
	"modules" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programs_slug_unique" UNIQUE("slug"),
	CONSTRAINT "programs_type_check" CHECK ("programs"."type" IN ('monitoring', 'pharma', 'pharmacy'))
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_admin_id" bigint,
	"actor_realm" text DEFAULT 'staff' NOT NULL,
	"program_id" bigint,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" bigint,
	"details" jsonb,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"body_text" text NOT NULL,
	"template" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "email_outbox_status_check" CHECK ("email_outbox"."status" IN ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "auth_codes" ADD CONSTRAINT "auth_codes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_controller_id_controller_accounts_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."controller_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_logs" ADD CONSTRAINT "login_logs_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_assigned_admin_id_admins_id_fk" FOREIGN KEY ("assigned_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "program_patient_counts" ADD CONSTRAINT "program_patient_counts_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_enterprise_roles" ADD CONSTRAINT "admin_enterprise_roles_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_enterprise_roles" ADD CONSTRAINT "admin_enterprise_roles_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_program_roles" ADD CONSTRAINT "admin_program_roles_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_program_roles" ADD CONSTRAINT "admin_program_roles_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_sessions" ADD CONSTRAINT "page_sessions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admins_email_unique" ON "admins" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "auth_codes_admin_purpose_idx" ON "auth_codes" USING btree ("admin_id","purpose","created_at");--> statement-breakpoint
CREATE INDEX "auth_sessions_admin_idx" ON "auth_sessions" USING btree ("admin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "controller_accounts_email_unique" ON "controller_accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "login_logs_admin_ts_idx" ON "login_logs" USING btree ("admin_id","login_at");--> statement-breakpoint
CREATE INDEX "rate_limit_events_key_ts_idx" ON "rate_limit_events" USING btree ("key","created_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "patients_program_name_idx" ON "patients" USING btree ("program_id","last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "patients_program_first_name_idx" ON "patients" USING btree ("program_id","first_name","last_name","id");--> statement-breakpoint
CREATE INDEX "patients_program_created_idx" ON "patients" USING btree ("program_id","created_at","id");--> statement-breakpoint
CREATE INDEX "patients_program_dob_idx" ON "patients" USING btree ("program_id","dob","id");--> statement-breakpoint
CREATE INDEX "patients_program_status_idx" ON "patients" USING btree ("program_id","status","last_name","id");--> statement-breakpoint
CREATE INDEX "patients_first_name_trgm_idx" ON "patients" USING gin ("first_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_last_name_trgm_idx" ON "patients" USING gin ("last_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "admin_program_roles_program_idx" ON "admin_program_roles" USING btree ("program_id");--> statement-breakpoint
CREATE INDEX "page_sessions_admin_ts_idx" ON "page_sessions" USING btree ("admin_id","created_at");--> statement-breakpoint
CREATE INDEX "programs_enterprise_idx" ON "programs" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "audit_events_program_ts_idx" ON "audit_events" USING btree ("program_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_ts_idx" ON "audit_events" USING btree ("actor_admin_id","created_at");--> statement-breakpoint
CREATE INDEX "email_outbox_pending_idx" ON "email_outbox" USING btree ("created_at") WHERE "email_outbox"."status" = 'pending';