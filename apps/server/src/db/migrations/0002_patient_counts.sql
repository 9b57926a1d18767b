-- Keeps program_patient_counts equal to the number of patients per program, statement by statement,
-- so that an unfiltered list answers its total without counting the program's rows.
CREATE FUNCTION maintain_program_patient_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE program_patient_counts c SET patients = c.patients - d.n
    FROM (SELECT program_id, count(*) AS n FROM old_rows GROUP BY program_id) d
    WHERE c.program_id = d.program_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO program_patient_counts AS c (program_id, patients)
    SELECT program_id, count(*) FROM new_rows GROUP BY program_id
    ON CONFLICT (program_id) DO UPDATE SET patients = c.patients + EXCLUDED.patients;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patients_count_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintain_program_patient_counts();
--> statement-breakpoint
CREATE TRIGGER patients_count_delete AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION maintain_program_patient_counts();
--> statement-breakpoint
CREATE TRIGGER patients_count_update AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION maintain_program_patient_counts();
--> statement-breakpoint
INSERT INTO program_patient_counts (program_id, patients)
SELECT program_id, count(*) FROM patients GROUP BY program_id
ON CONFLICT (program_id) DO UPDATE SET patients = EXCLUDED.patients;
