CREATE TABLE "webhook_deliveries" (
	"vendor" text NOT NULL,
	"delivery_id" text NOT NULL,
	"events" smallint NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_vendor_delivery_id_pk" PRIMARY KEY("vendor","delivery_id")
);
