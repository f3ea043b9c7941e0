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
	$(CC) $(CFLAGS) -fPIC -shared -fvisibility=hidden -DFAKE_API=$(call fakenvml_api,$@) \
	    -o $@ $< $(LDFLAGS)

# The test dlopens the fake at run time: order-only, so it is not linked in.
$(B)/tests/test_gpu: | $(FAKENVML)
$(B)/tests/test_gpu: private CPPFLAGS += -DFAKE_NVML_DIR=\"$(abspath $(B))/fakenvml\"

EXTRA_TEST_BIN += $(FAKENVML) $(B)/tests/test_gpu
# `tests:` in the Makefile expanded EXTRA_TEST_BIN before this file was read.
tests: $(FAKENVML) $(B)/tests/test_gpu
endif
