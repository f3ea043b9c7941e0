# mk/unit.mk: what each unit test links besides the core and cmocka (the
# Makefile's $(B)/tests/test_% rule).  Each test names what it uses:
#  - UNIT_TUI_TESTS test tui code, which is curses-free where they test it
#    (tui/layout.c, sanitize.c, spark.c): they link the tui objects as an
#    archive, so the linker takes only the objects they call, and no curses
#    (a test of code that draws would add $(CURSES_CFLAGS) to UNIT_CFLAGS
#    and $(CURSES_LIBS) to UNIT_LIBS here);
#  - UNIT_JSON_TESTS read what stagetop writes with cJSON, the independent
#    reference parser (never linked into the product);
#  - UNIT_FAKEPLAT_TESTS run the core on the scripted backend of
#    tests/fakeplat.c (the soak too: mk/faults.mk);
#  - UNIT_REPORT_TESTS build their traces and diffs with the fixture of
#    tests/report_fixture.c (which calls cmocka's asserts).
UNIT_TUI_TESTS  := test_layout test_sanitize test_sparkline test_unsafe_text test_proc_table \
                   test_view_cap
UNIT_JSON_TESTS := test_doctor_parse test_json_write test_summary test_trace_export test_trace_import \
                   test_trace_record
UNIT_FAKEPLAT_TESTS := test_monitor test_monitor_mps test_faults test_run_view test_swap_growth test_lanes \
                       test_event_flood test_record_deleted
FAKEPLAT_OBJ := $(B)/tests/fakeplat.o
UNIT_REPORT_TESTS := test_report_model test_report_nostages test_diff_time test_report_charts \
                     test_md test_report_env
REPORT_FIXTURE_OBJ := $(B)/tests/report_fixture.o

$(B)/libstagetop-tui.a: $(TUI_OBJ)
	@rm -f $@ && ar rcs $@ $^

$(UNIT_TUI_TESTS:%=$(B)/tests/%): $(B)/libstagetop-tui.a
# test_view_cap links tui/view_cap.c, which draws the cap's line: curses
$(B)/tests/test_view_cap: UNIT_CFLAGS += $(CURSES_CFLAGS)
$(B)/tests/test_view_cap: UNIT_LIBS += $(CURSES_LIBS) -lm
$(UNIT_JSON_TESTS:%=$(B)/tests/%): UNIT_CFLAGS += $(TEST_JSON_CFLAGS)
$(UNIT_JSON_TESTS:%=$(B)/tests/%): UNIT_LIBS += $(TEST_JSON_LIBS)
$(UNIT_FAKEPLAT_TESTS:%=$(B)/tests/%): $(FAKEPLAT_OBJ)
$(UNIT_REPORT_TESTS:%=$(B)/tests/%): $(REPORT_FIXTURE_OBJ)

$(REPORT_FIXTURE_OBJ): tests/report_fixture.c $(B)/flags
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) $(CMOCKA_CFLAGS) -Itests -MMD -MP -c -o $@ $<
