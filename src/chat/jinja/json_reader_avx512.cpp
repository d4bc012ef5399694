// The JSON reader compiled again with AVX-512 (CMakeLists.txt gives this file -mavx512bw
// -mavx512vl on x86-64), chosen when running on a CPU that has it: json_reader.cpp's
// avx512_reader().
#ifdef TEXTEDGE_AVX512_READER
#define TEXTEDGE_JSON_READER_AVX512
#include "chat/jinja/json_reader.cpp"
#endif
