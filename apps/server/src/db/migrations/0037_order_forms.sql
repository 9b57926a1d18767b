CREATE TABLE "order_form_sends" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_form_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_form_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"channel" text DEFAULT 'email' NOT NULL,
	"to_address" text NOT NULL,
	"recipient_name" text,
	"email_outbox_id" bigint,
	"sent_by" bigint NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"link_expires_at" timestamp with time zone NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"last_downloaded_at" timestamp with time zone,
	CONSTRAINT "order_form_sends_kind_check" CHECK ("order_form_sends"."kind" IN ('send', 'resend')),
	CONSTRAINT "order_form_sends_channel_check" CHECK ("order_form_sends"."channel" IN ('email'))
);
--> statement-breakpoint
CREATE TABLE "order_form_templates" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"recipient_kind" text NOT NULL,
	"program_types" text[] NOT NULL,
	"fields" jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "order_form_templates_code_unique" UNIQUE("code"),
	CONSTRAINT "order_form_templates_recipient_check" CHECK ("order_form_templates"."recipient_kind" IN ('prescriber', 'pharmacy', 'supplier'))
);
--> statement-breakpoint
CREATE TABLE "order_forms" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_forms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"template_id" bigint NOT NULL,
	"template_name" text NOT NULL,
	"recipient_kind" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"fields" jsonb NOT NULL,
	"pdf_key" text,
	"pdf_size" integer,
	"pdf_generated_at" timestamp with time zone,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone,
	CONSTRAINT "order_forms_state_check" CHECK ("order_forms"."state" IN ('created', 'sent', 'resent')),
	CONSTRAINT "order_forms_recipient_check" CHECK ("order_forms"."recipient_kind" IN ('prescriber', 'pharmacy', 'supplier'))
);
--> statement-breakpoint
ALTER TABLE "order_form_sends" ADD CONSTRAINT "order_form_sends_order_form_id_order_forms_id_fk" FOREIGN KEY ("order_form_id") REFERENCES "public"."order_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_form_sends" ADD CONSTRAINT "order_form_sends_sent_by_admins_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_forms" ADD CONSTRAINT "order_forms_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_forms" ADD CONSTRAINT "order_forms_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_forms" ADD CONSTRAINT "order_forms_template_id_order_form_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."order_form_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_forms" ADD CONSTRAINT "order_forms_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_form_sends_form_idx" ON "order_form_sends" USING btree ("order_form_id","id");--> statement-breakpoint
CREATE INDEX "order_forms_patient_idx" ON "order_forms" USING btree ("patient_id","created_at","id");--> statement-breakpoint
CREATE INDEX "order_forms_program_idx" ON "order_forms" USING btree ("program_id","state");