// textedge from the outside: encode a text, render a chat prompt, stream a response that stops
// at a stop string. Run it with a model directory: textedge_example models/qwen3
// It checks what it prints and exits 1 when something is not as expected.
#include <cstdio>
#include <string>
#include <textedge/textedge.hpp>
#include <vector>

namespace {

bool check(bool ok, const char* what) {
  if (!ok) std::fprintf(stderr, "FAILED: %s\n", what);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL_DIR\n", argv[0]);
    return 2;
  }
  try {
    std::printf("textedge %s (headers %s)\n", textedge::version(), TEXTEDGE_VERSION_STRING);
    bool ok = check(std::string(textedge::version()) == TEXTEDGE_VERSION_STRING, "library version == header version");

    // Text to ids and back.
    auto tokenizer = textedge::Tokenizer::load(argv[1]);
    const std::string text = "Hello, world! Grüße, 世界";
    std::vector<textedge::TokenId> ids = tokenizer.encode(text);
    std::printf("encode(\"%s\"): %zu ids\n", text.c_str(), ids.size());
    ok &= check(!ids.empty() && tokenizer.decode(ids) == text, "decode(encode(text)) == text");

    // A chat prompt; the template writes the special tokens, so encode it without adding any.
    auto chat = textedge::ChatTemplate::load(argv[1]);
    std::string prompt = chat.apply(R"([{"role": "user", "content": "What is 6 times 7?"}])");
    std::printf("prompt:\n%s\n", prompt.c_str());
    ok &= check(prompt.find("What is 6 times 7?") != std::string::npos, "the prompt holds the message");
    std::vector<textedge::TokenId> prompt_ids = tokenizer.encode(prompt, {.add_special_tokens = false});

    // The engine's response arrives id by id; the stream stops at "</answer>" and never shows it.
    std::vector<textedge::TokenId> response = tokenizer.encode("The answer is 42.</answer> Ignored after the stop.");
    textedge::TextStream stream(tokenizer, prompt_ids, {.stop = {"</answer>"}});
    std::string streamed;
    textedge::StreamDelta delta;
    for (textedge::TokenId id : response) {
      delta = stream.step({&id, 1});
      streamed += delta.text;
      if (stream.finished()) break;
    }
    std::printf("streamed: \"%s\" (finish_reason %s)\n", streamed.c_str(), textedge::to_string(delta.finish_reason));
    ok &= check(streamed == "The answer is 42.", "the streamed text ends where the stop string begins");
    ok &= check(delta.finish_reason == textedge::FinishReason::kStop, "the stream finished with reason stop");

    std::printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
  } catch (const textedge::Error& error) {
    std::fprintf(stderr, "textedge error: %s\n", error.what());
    return 1;
  }
}
