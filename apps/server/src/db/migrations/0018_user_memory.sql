CREATE TABLE "user_memory" (
	"admin_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"module_name" text NOT NULL,
	"default_settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_memory_admin_id_program_id_module_name_pk" PRIMARY KEY("admin_id","program_id","module_name"),
	CONSTRAINT "user_memory_module_check" CHECK ("user_memory"."module_name" IN ('messenger', 'billings', 'patients'))
);
--> statement-breakpoint
ALTER TABLE "user_memory" ADD CONSTRAINT "user_memory_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_memory" ADD CONSTRAINT "user_memory_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;