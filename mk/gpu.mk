# mk/gpu.mk: the NVML lane's test fixture, a fake libnvidia-ml.so.1
# (tests/fakenvml/fake_nvml.c) in three API flavours, which test_gpu loads
# through st_gpu_open's real dlopen path.

FAKENVML_SRC := tests/fakenvml/fake_nvml.c
FAKENVML := $(B)/fakenvml/libnvidia-ml.so.1 \
            $(B)/fakenvml/api2/libnvidia-ml.so.1 \
            $(B)/fakenvml/api1/libnvidia-ml.so.1

ifeq ($(PLATFORM),linux)
fakenvml_api = $(if $(findstring /api1/,$(1)),1,$(if $(findstring /api2/,$(1)),2,3))

$(FAKENVML): $(FAKENVML_SRC)
	@mkdir -p $(dir $@)
	$(QCC) $(CFLAGS) -fPIC -shared -fvisibility=hidden -DFAKE_API=$(call fakenvml_api,$@) \
	    -o $@ $< $(LDFLAGS)

# The test dlopens the fake at run time: order-only, so it is not linked in.
$(B)/tests/test_gpu: | $(FAKENVML)
$(B)/tests/test_gpu: private CPPFLAGS += -DFAKE_NVML_DIR=\"$(abspath $(B))/fakenvml\"

EXTRA_TEST_BIN += $(FAKENVML) $(B)/tests/test_gpu
endif

# A probe of what a real NVML writes (run by hand on a GPU machine, see docs/gpu.md).
$(B)/gpu/nvml_probe: tests/gpu/nvml_probe.c
	@mkdir -p $(dir $@)
	$(QCC) $(CFLAGS) -o $@ $< $(LDFLAGS) $(DL_LIBS)

# One reading through core/platform/gpu_nvml.c: `ST_NVML_LIB=... gpu_once PID...`.
$(B)/gpu/gpu_once: tests/gpu/gpu_once.c $(B)/libstagetop.a
	@mkdir -p $(dir $@)
	$(QCC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(DL_LIBS)
