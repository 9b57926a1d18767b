ALTER TABLE "program_patient_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every write to a program's patients moves its version on (the list's page marks are valid for one).
CREATE OR REPLACE FUNCTION maintain_program_patient_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE program_patient_counts c SET patients = c.patients - d.n, version = c.version + 1
    FROM (SELECT program_id, count(*) AS n FROM old_rows GROUP BY program_id) d
    WHERE c.program_id = d.program_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO program_patient_counts AS c (program_id, patients, version)
    SELECT program_id, count(*), 1 FROM new_rows GROUP BY program_id
    ON CONFLICT (program_id) DO UPDATE SET patients = c.patients + EXCLUDED.patients, version = c.version + 1;
  END IF;
  RETURN NULL;
END $$;
