#include "chat/jinja/parser.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "chat/jinja/runtime.hpp"
#include "textedge/error.hpp"

namespace textedge::detail::jinja {

namespace {

constexpr int kMaxNesting = 400;  // deeper expressions or blocks fail instead of exhausting the stack

const char* const kBuiltinNames[kBuiltinNameCount] = {"range",    "namespace", "dict",   "cycler",  "joiner", "raise_exception",
                                                      "strftime_now", "lipsum", "loop", "caller", "varargs", "kwargs"};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {
    for (auto* n : kBuiltinNames) intern(n);
  }

  ParsedTemplate run() {
    ParsedTemplate out;
    out.body = subparse({});
    if (cur().type != Tok::Eof) fail("unexpected token");
    out.names = std::move(names_);
    return out;
  }

 private:
  // ---- token stream
  const Token& cur() const { return t_[i_]; }
  const Token& look() const { return t_[std::min(i_ + 1, t_.size() - 1)]; }
  void next() {
    if (i_ + 1 < t_.size()) ++i_;
  }
  bool is_op(const char* op) const { return cur().type == Tok::Operator && cur().text == op; }
  bool is_name(const char* name) const { return cur().type == Tok::Name && cur().text == name; }
  bool skip_op(const char* op) {
    if (!is_op(op)) return false;
    next();
    return true;
  }
  bool skip_name(const char* name) {
    if (!is_name(name)) return false;
    next();
    return true;
  }
  Location loc() const { return {static_cast<std::uint32_t>(cur().line), static_cast<std::uint32_t>(cur().column)}; }

  static std::string describe(const Token& t) {
    switch (t.type) {
      case Tok::Data:
        return "template data / text";
      case Tok::VariableBegin:
        return "begin of print statement";
      case Tok::VariableEnd:
        return "end of print statement";
      case Tok::BlockBegin:
        return "begin of statement block";
      case Tok::BlockEnd:
        return "end of statement block";
      case Tok::Eof:
        return "end of template";
      default:
        return t.text;
    }
  }

  [[noreturn]] void fail(const std::string& message, const char* kind = "TemplateSyntaxError") const {
    throw TemplateError(kind, message, cur().line, cur().column);
  }
  [[noreturn]] void fail_at(const std::string& message, Location l, const char* kind = "TemplateSyntaxError") const {
    throw TemplateError(kind, message, l.line, l.column);
  }
  void expect_op(const char* op) {
    if (!skip_op(op)) fail(std::string("expected token '") + op + "', got '" + describe(cur()) + "'");
  }
  std::string expect_name() {
    if (cur().type != Tok::Name) fail("expected token 'name', got '" + describe(cur()) + "'");
    std::string s = cur().text;
    next();
    return s;
  }
  void expect(Tok type, const char* what) {
    if (cur().type != type) fail(std::string("expected token '") + what + "', got '" + describe(cur()) + "'");
    next();
  }
  void expect_block_end() { expect(Tok::BlockEnd, "end of statement block"); }

  NameId intern(const std::string& name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    NameId id = static_cast<NameId>(names_.size());
    names_.push_back(name);
    ids_.emplace(name, id);
    return id;
  }

  struct Depth {
    Parser& p;
    explicit Depth(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxNesting) p.fail("template nested too deeply");
    }
    ~Depth() { --p.depth_; }
  };

  ExprPtr make(ExprKind kind, Location l) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->loc = l;
    return e;
  }

  // ---- statements
  bool at_end_tag(const std::vector<const char*>& ends) const {
    if (cur().type != Tok::Name) return false;
    for (auto* e : ends)
      if (cur().text == e) return true;
    return false;
  }

  Body subparse(const std::vector<const char*>& ends) {
    Depth d(*this);
    Body body;
    while (cur().type != Tok::Eof) {
      const Token& tok = cur();
      if (tok.type == Tok::Data) {
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::Data;
        s->loc = loc();
        s->text = tok.text;
        body.push_back(std::move(s));
        next();
      } else if (tok.type == Tok::VariableBegin) {
        Location l = loc();
        next();
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::Output;
        s->loc = l;
        s->expr = parse_tuple(true, {}, false);
        expect(Tok::VariableEnd, "end of print statement");
        if (s->expr->kind == ExprKind::Const && s->expr->value.is_string()) {  // {{- '<|im_end|>\n' }}
          s->kind = StmtKind::Data;
          s->text = std::string(s->expr->value.str());
          s->expr.reset();
        }
        body.push_back(std::move(s));
      } else if (tok.type == Tok::BlockBegin) {
        next();
        if (!ends.empty() && at_end_tag(ends)) return body;
        parse_statement(body, ends);
        expect_block_end();
      } else {
        fail("unexpected '" + describe(tok) + "'");
      }
    }
    if (!ends.empty()) {
      std::string expected;
      for (auto* e : ends) expected += std::string(expected.empty() ? "" : " or ") + "'" + e + "'";
      fail("Unexpected end of template. Jinja was looking for the following tags: " + expected + ".");
    }
    return body;
  }

  // Parses statements up to one of `ends` (the end tag is left current).
  Body parse_statements(const std::vector<const char*>& ends, bool drop_needle) {
    skip_op(":");
    expect_block_end();
    Body b = subparse(ends);
    if (cur().type == Tok::Eof) fail("Unexpected end of template.");
    if (drop_needle) next();
    return b;
  }

  StmtPtr stmt(StmtKind kind, Location l) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->loc = l;
    return s;
  }

  void parse_statement(Body& body, const std::vector<const char*>& ends) {
    if (cur().type != Tok::Name) fail("tag name expected");
    Location l = loc();
    std::string tag = cur().text;
    if (tag == "if") {
      body.push_back(parse_if());
    } else if (tag == "for") {
      body.push_back(parse_for());
    } else if (tag == "set") {
      body.push_back(parse_set());
    } else if (tag == "macro") {
      body.push_back(parse_macro());
    } else if (tag == "call") {
      body.push_back(parse_call_block());
    } else if (tag == "filter") {
      next();
      auto s = stmt(StmtKind::FilterBlock, l);
      s->filter = parse_filter(nullptr, true);
      int saved_soft = soft_;
    soft_ = 0;
      s->body = parse_statements({"endfilter"}, true);
      soft_ = saved_soft;
      body.push_back(std::move(s));
    } else if (tag == "with") {
      next();
      auto s = stmt(StmtKind::With, l);
      while (cur().type != Tok::BlockEnd) {
        if (!s->targets.empty()) expect_op(",");
        s->targets.push_back(parse_assign_target(true, false, {}));
        expect_op("=");
        s->values.push_back(parse_expression(true));
      }
      int saved_soft = soft_;
    soft_ = 0;
      s->body = parse_statements({"endwith"}, true);
      soft_ = saved_soft;
      body.push_back(std::move(s));
    } else if (tag == "generation") {
      next();
      auto s = stmt(StmtKind::Generation, l);
      int saved_soft = soft_;
    soft_ = 0;
      s->body = parse_statements({"endgeneration"}, true);
      soft_ = saved_soft;
      body.push_back(std::move(s));
    } else if (tag == "break" || tag == "continue") {
      if (loop_depth_ == 0) fail(std::string("'") + tag + "' outside loop... ", "TemplateSyntaxError");
      next();
      body.push_back(stmt(tag == "break" ? StmtKind::Break : StmtKind::Continue, l));
    } else if (tag == "print") {
      next();
      auto s = stmt(StmtKind::Output, l);
      auto tuple = make(ExprKind::Tuple, l);
      while (cur().type != Tok::BlockEnd) {
        if (!tuple->children.empty()) expect_op(",");
        tuple->children.push_back(parse_expression(true));
      }
      // Each printed expression is output in turn: emit one Output per expression.
      for (auto& e : tuple->children) {
        auto o = stmt(StmtKind::Output, e->loc);
        o->expr = std::move(e);
        body.push_back(std::move(o));
      }
    } else if (tag == "block") {
      next();
      auto s = stmt(StmtKind::Block, l);
      s->text = expect_name();
      skip_name("scoped");
      skip_name("required");
      int saved_soft = soft_;
    soft_ = 0;
      s->body = parse_statements({"endblock"}, true);
      soft_ = saved_soft;
      if (cur().type == Tok::Name) next();  // optional name after endblock
      body.push_back(std::move(s));
    } else if (tag == "include" || tag == "extends" || tag == "import" || tag == "from") {
      next();
      auto s = stmt(StmtKind::Unsupported, l);
      s->text = "no loader for this environment specified";
      s->expr = parse_expression(true);
      // The rest (as name, import names, with/without context, ignore missing) is not evaluated.
      while (cur().type != Tok::BlockEnd && cur().type != Tok::Eof) next();
      body.push_back(std::move(s));
    } else if (tag == "autoescape") {
      next();
      auto s = stmt(StmtKind::With, l);  // a scope; escaping is not modelled
      s->expr = parse_expression(true);
      s->body = parse_statements({"endautoescape"}, true);
      s->kind = StmtKind::Block;
      body.push_back(std::move(s));
    } else {
      std::string message = "Encountered unknown tag '" + tag + "'.";
      if (!ends.empty()) {
        std::string expected;
        for (auto* e : ends) expected += std::string(expected.empty() ? "" : " or ") + "'" + e + "'";
        message += " Jinja was looking for the following tags: " + expected + ".";
      }
      fail(message);
    }
  }

  StmtPtr parse_if() {
    Location l = loc();
    next();
    auto s = stmt(StmtKind::If, l);
    ++soft_;
    s->expr = parse_tuple(false, {}, false);
    s->body = parse_statements({"elif", "else", "endif"}, false);
    parse_if_rest(*s);
    --soft_;
    return s;
  }
  // After an if/elif body: an elif nests as an If in the else branch and shares the endif.
  void parse_if_rest(Stmt& s) {
    if (is_name("elif")) {
      Location el = loc();
      next();
      auto e = stmt(StmtKind::If, el);
      e->expr = parse_tuple(false, {}, false);
      e->body = parse_statements({"elif", "else", "endif"}, false);
      parse_if_rest(*e);
      s.else_body.push_back(std::move(e));
      return;
    }
    if (skip_name("else")) {
      s.else_body = parse_statements({"endif"}, true);
      return;
    }
    next();  // endif
  }

  StmtPtr parse_for() {
    Location l = loc();
    next();
    auto s = stmt(StmtKind::For, l);
    s->targets.push_back(parse_assign_target(true, false, {"in"}));
    if (!skip_name("in")) fail("expected token 'in', got '" + describe(cur()) + "'");
    s->expr = parse_tuple(false, {"recursive"}, false);
    if (skip_name("if")) s->filter = parse_expression(true);
    s->recursive = skip_name("recursive");
    ++loop_depth_;
    int saved_soft = soft_;
    soft_ = 0;
    s->body = parse_statements({"endfor", "else"}, false);
    --loop_depth_;
    bool has_else = cur().text == "else";
    next();
    if (has_else) s->else_body = parse_statements({"endfor"}, true);
    soft_ = saved_soft;
    // Jinja2 refuses a template that assigns `loop` anywhere in a for loop, when it compiles it:
    // in the loop's target or any set, set block or for in it, nested macros included (not a
    // with's or a macro's parameters).
    const Target* t = assigns_loop(s->targets);
    if (!t) t = assigns_loop(s->body);
    if (!t) t = assigns_loop(s->else_body);
    if (t) fail_at("Can't assign to special loop variable in for-loop target", t->loc, "TemplateAssertionError");
    return s;
  }

  // The first target named `loop` in `targets`, or among the targets of the statements in `body`.
  static const Target* assigns_loop(const std::vector<Target>& targets) {
    for (const Target& t : targets) {
      if (t.kind == Target::Name && t.name == kLoop) return &t;
      if (t.kind == Target::Tuple)
        if (const Target* found = assigns_loop(t.items)) return found;
    }
    return nullptr;
  }
  static const Target* assigns_loop(const Body& body) {
    for (const StmtPtr& s : body) {
      if (s->kind == StmtKind::Set || s->kind == StmtKind::SetBlock || s->kind == StmtKind::For)
        if (const Target* t = assigns_loop(s->targets)) return t;
      for (const Body* inner : {&s->body, &s->else_body, s->macro ? &s->macro->body : nullptr})
        if (inner)
          if (const Target* t = assigns_loop(*inner)) return t;
    }
    return nullptr;
  }

  StmtPtr parse_set() {
    Location l = loc();
    next();
    Target target = parse_assign_target(true, true, {});
    if (skip_op("=")) {
      auto s = stmt(StmtKind::Set, l);
      s->targets.push_back(std::move(target));
      s->expr = parse_tuple(true, {}, false);
      return s;
    }
    auto s = stmt(StmtKind::SetBlock, l);
    s->targets.push_back(std::move(target));
    s->filter = parse_filter(nullptr, false);
    s->body = parse_statements({"endset"}, true);
    return s;
  }

  void parse_signature(MacroDef& m) {
    expect_op("(");
    while (!is_op(")")) {
      if (!m.params.empty()) expect_op(",");
      if (cur().type != Tok::Name) fail("expected token 'name', got '" + describe(cur()) + "'");
      m.param_names.push_back(cur().text);
      m.params.push_back(intern(cur().text));
      next();
      if (skip_op("=")) {
        m.defaults.push_back(parse_expression(true));
      } else if (!m.defaults.empty()) {
        fail("non-default argument follows default argument");
      }
    }
    expect_op(")");
  }

  StmtPtr parse_macro() {
    Location l = loc();
    next();
    auto s = stmt(StmtKind::Macro, l);
    s->macro = std::make_shared<MacroDef>();
    s->macro->name = expect_name();
    s->macro->name_id = intern(s->macro->name);
    parse_signature(*s->macro);
    int saved_loop = loop_depth_;
    loop_depth_ = 0;
    int saved_soft = soft_;
    soft_ = 0;
    s->macro->body = parse_statements({"endmacro"}, true);
    soft_ = saved_soft;
    loop_depth_ = saved_loop;
    scan_specials(*s->macro);
    return s;
  }

  StmtPtr parse_call_block() {
    Location l = loc();
    next();
    auto s = stmt(StmtKind::CallBlock, l);
    s->macro = std::make_shared<MacroDef>();
    s->macro->name = "caller";
    s->macro->name_id = kCaller;
    if (is_op("(")) parse_signature(*s->macro);
    s->expr = parse_expression(true);
    if (s->expr->kind != ExprKind::Call) fail_at("expected call", l);
    int saved_loop = loop_depth_;
    loop_depth_ = 0;
    int saved_soft = soft_;
    soft_ = 0;
    s->macro->body = parse_statements({"endcall"}, true);
    soft_ = saved_soft;
    loop_depth_ = saved_loop;
    scan_specials(*s->macro);
    return s;
  }

  // Whether a macro body reads caller / varargs / kwargs (Jinja2 enables those parameters then).
  void scan_specials(MacroDef& m) {
    std::function<void(const Expr*)> ex = [&](const Expr* e) {
      if (!e) return;
      if (e->kind == ExprKind::Name) {
        if (e->name == kCaller) m.uses_caller = true;
        if (e->name == kVarargs) m.uses_varargs = true;
        if (e->name == kKwargs) m.uses_kwargs = true;
      }
      for (auto& c : e->children) ex(c.get());
      for (auto& c : e->call.args) ex(c.get());
      for (auto& c : e->call.kwargs) ex(c.second.get());
      ex(e->call.dyn_args.get());
      ex(e->call.dyn_kwargs.get());
    };
    std::function<void(const Body&)> st = [&](const Body& b) {
      for (auto& s : b) {
        ex(s->expr.get());
        ex(s->filter.get());
        for (auto& v : s->values) ex(v.get());
        st(s->body);
        st(s->else_body);
        if (s->kind == StmtKind::CallBlock) {
          // A nested call block's body belongs to its own caller.
        }
        if (s->macro && s->kind == StmtKind::Macro) {
          for (auto& d : s->macro->defaults) ex(d.get());
        }
        if (s->macro && s->kind == StmtKind::CallBlock) st(s->macro->body);
      }
    };
    st(m.body);
  }

  Target parse_assign_target(bool with_tuple, bool with_namespace, const std::vector<const char*>& extra_end) {
    Target t;
    t.loc = loc();
    if (with_namespace && cur().type == Tok::Name && look().type == Tok::Operator && look().text == ".") {
      t.kind = Target::NamespaceAttr;
      t.name = intern(cur().text);
      next();
      next();
      t.attr = expect_name();
      return t;
    }
    if (!with_tuple) {
      t.name = name_target();
      return t;
    }
    // A simplified tuple: names only (or parenthesized tuples of names).
    std::vector<Target> items;
    bool is_tuple = false;
    while (true) {
      if (!items.empty()) expect_op(",");
      if (is_tuple_end(extra_end)) break;
      items.push_back(primary_target());
      if (is_op(",")) {
        is_tuple = true;
      } else {
        break;
      }
    }
    if (!is_tuple) {
      if (items.empty()) fail("Expected an expression, got '" + describe(cur()) + "'");
      return std::move(items[0]);
    }
    t.kind = Target::Tuple;
    t.items = std::move(items);
    return t;
  }

  Target primary_target() {
    Target t;
    t.loc = loc();
    if (is_op("(")) {
      next();
      std::vector<Target> items;
      while (!is_op(")")) {
        if (!items.empty()) expect_op(",");
        if (is_op(")")) break;
        items.push_back(primary_target());
      }
      expect_op(")");
      if (items.size() == 1 && t.items.empty()) {
        // "(a)" is just a; "(a,)" would have had a comma
      }
      t.kind = Target::Tuple;
      t.items = std::move(items);
      if (t.items.size() == 1) return std::move(t.items[0]);
      return t;
    }
    t.name = name_target();
    return t;
  }

  NameId name_target() {
    if (cur().type != Tok::Name) fail("can't assign to '" + describe(cur()) + "'");
    const std::string& n = cur().text;
    if (n == "true" || n == "false" || n == "True" || n == "False" || n == "none" || n == "None")
      fail("can't assign to 'const'");
    NameId id = intern(n);
    next();
    return id;
  }

  bool is_tuple_end(const std::vector<const char*>& extra_end) const {
    if (cur().type == Tok::VariableEnd || cur().type == Tok::BlockEnd || (cur().type == Tok::Operator && cur().text == ")"))
      return true;
    if (cur().type == Tok::Name)
      for (auto* e : extra_end)
        if (cur().text == e) return true;
    return false;
  }

  // ---- expressions
  ExprPtr parse_tuple(bool with_condexpr, const std::vector<const char*>& extra_end, bool explicit_parens) {
    Location l = loc();
    std::vector<ExprPtr> args;
    bool is_tuple = false;
    while (true) {
      if (!args.empty()) expect_op(",");
      if (is_tuple_end(extra_end)) break;
      args.push_back(parse_expression(with_condexpr));
      if (is_op(",")) {
        is_tuple = true;
      } else {
        break;
      }
    }
    if (!is_tuple) {
      if (!args.empty()) return std::move(args[0]);
      if (!explicit_parens) fail("Expected an expression, got '" + describe(cur()) + "'");
    }
    auto t = make(ExprKind::Tuple, l);
    t->children = std::move(args);
    return t;
  }

  ExprPtr parse_expression(bool with_condexpr) {
    Depth d(*this);
    if (!with_condexpr) return parse_or();
    Location l = loc();
    ExprPtr e1 = parse_or();
    while (skip_name("if")) {
      ++soft_;
      auto c = make(ExprKind::CondExpr, l);
      ExprPtr e2 = parse_or();
      ExprPtr e3;
      if (skip_name("else")) e3 = parse_expression(true);
      --soft_;
      c->children.push_back(std::move(e2));
      c->children.push_back(std::move(e1));
      c->children.push_back(std::move(e3));
      e1 = std::move(c);
    }
    return e1;
  }

  ExprPtr parse_or() {
    Location l = loc();
    ExprPtr left = parse_and();
    while (skip_name("or")) {
      auto n = make(ExprKind::Or, l);
      n->children.push_back(std::move(left));
      n->children.push_back(parse_and());
      left = std::move(n);
    }
    return left;
  }

  ExprPtr parse_and() {
    Location l = loc();
    ExprPtr left = parse_not();
    while (skip_name("and")) {
      auto n = make(ExprKind::And, l);
      // `message['role'] == 'assistant' and ...`: marked for the renderer's condition().
      if (left->kind == ExprKind::Compare && left->op == kKeyEqualsText) n->op = kKeyEqualsText;
      n->children.push_back(std::move(left));
      n->children.push_back(parse_not());
      left = std::move(n);
    }
    return left;
  }

  ExprPtr parse_not() {
    if (is_name("not")) {
      Depth d(*this);
      Location l = loc();
      next();
      auto n = make(ExprKind::Not, l);
      n->children.push_back(parse_not());
      return n;
    }
    return parse_compare();
  }

  ExprPtr parse_compare() {
    Location l = loc();
    ExprPtr e = parse_math1();
    std::unique_ptr<Expr> cmp;
    while (true) {
      CmpOp op;
      if (is_op("==")) {
        op = CmpOp::Eq;
      } else if (is_op("!=")) {
        op = CmpOp::Ne;
      } else if (is_op("<")) {
        op = CmpOp::Lt;
      } else if (is_op("<=")) {
        op = CmpOp::Le;
      } else if (is_op(">")) {
        op = CmpOp::Gt;
      } else if (is_op(">=")) {
        op = CmpOp::Ge;
      } else if (is_name("in")) {
        op = CmpOp::In;
      } else if (is_name("not") && look().type == Tok::Name && look().text == "in") {
        next();
        op = CmpOp::NotIn;
      } else {
        break;
      }
      next();
      if (!cmp) {
        cmp = make(ExprKind::Compare, l);
        cmp->children.push_back(std::move(e));
      }
      cmp->ops.push_back(op);
      cmp->children.push_back(parse_math1());
    }
    if (cmp) {
      mark_key_compare(*cmp);
      mark_loop_position(*cmp);
    }
    return cmp ? std::move(cmp) : std::move(e);
  }

  // message['role'] == 'user' (or message.role, or !=): op kKeyEqualsText, the key in attr.
  static void mark_key_compare(Expr& cmp) {
    if (cmp.ops.size() != 1 || (cmp.ops[0] != CmpOp::Eq && cmp.ops[0] != CmpOp::Ne)) return;
    const Expr& r = *cmp.children[1];
    std::string_view key;
    if (r.kind != ExprKind::Const || !r.value.is_string() || !key_of(*cmp.children[0], key)) return;
    cmp.attr = key;
    cmp.op = kKeyEqualsText;
    // The name and the text again in the node itself: the renderer reads them without a chain
    // of loads through the operands (see Renderer::condition()).
    cmp.name = cmp.children[0]->children[0]->name;
    cmp.value = r.value;
  }

  // loop.index0 == 0, loop.index > 1 (any name, the renderer checks it holds a loop): op kLoopPosition.
  static void mark_loop_position(Expr& cmp) {
    if (cmp.op || cmp.ops.size() != 1 || cmp.ops[0] == CmpOp::In || cmp.ops[0] == CmpOp::NotIn) return;
    const Expr& l = *cmp.children[0];
    const Expr& r = *cmp.children[1];
    if (r.kind == ExprKind::Const && r.value.is_int() && l.kind == ExprKind::Getattr && l.op &&
        l.loop_attr >= LoopAttr::Index && l.loop_attr <= LoopAttr::Revindex0 && l.children[0]->kind == ExprKind::Name)
      cmp.op = kLoopPosition;
  }

  ExprPtr binary(BinOp op, ExprPtr a, ExprPtr b, Location l) {
    auto n = make(ExprKind::Binary, l);
    n->op = static_cast<std::uint8_t>(op);
    n->children.push_back(std::move(a));
    n->children.push_back(std::move(b));
    return n;
  }

  // The operands of the `+` chain ending at `e`, left to right (see Expr::sum): the left spine of
  // `+` nodes, as the renderer walked it at each evaluation before.
  static void flatten_sum(Expr& e) {
    std::vector<SumOperand> sum;
    const Expr* x = &e;
    for (; x->kind == ExprKind::Binary && x->op == static_cast<std::uint8_t>(BinOp::Add); x = x->children[0].get()) {
      if (sum.size() + 1 == kMaxSumOperands) return;
      sum.push_back(sum_operand(x->children[1].get(), x));
    }
    sum.push_back(sum_operand(x, nullptr));
    std::reverse(sum.begin(), sum.end());
    e.sum = std::move(sum);
  }

  ExprPtr parse_math1() {
    Location l = loc();
    ExprPtr left = parse_concat();
    while (is_op("+") || is_op("-")) {
      BinOp op = is_op("+") ? BinOp::Add : BinOp::Sub;
      next();
      left = binary(op, std::move(left), parse_concat(), l);
    }
    if (left->kind == ExprKind::Binary && left->op == static_cast<std::uint8_t>(BinOp::Add)) flatten_sum(*left);
    return left;
  }

  ExprPtr parse_concat() {
    Location l = loc();
    ExprPtr first = parse_math2();
    if (!is_op("~")) return first;
    auto n = make(ExprKind::Concat, l);
    n->children.push_back(std::move(first));
    while (skip_op("~")) n->children.push_back(parse_math2());
    return n;
  }

  ExprPtr parse_math2() {
    Location l = loc();
    ExprPtr left = parse_pow();
    while (true) {
      BinOp op;
      if (is_op("*")) {
        op = BinOp::Mul;
      } else if (is_op("/")) {
        op = BinOp::Div;
      } else if (is_op("//")) {
        op = BinOp::FloorDiv;
      } else if (is_op("%")) {
        op = BinOp::Mod;
      } else {
        break;
      }
      next();
      left = binary(op, std::move(left), parse_pow(), l);
    }
    return left;
  }

  ExprPtr parse_pow() {
    Location l = loc();
    ExprPtr left = parse_unary(true);
    while (skip_op("**")) left = binary(BinOp::Pow, std::move(left), parse_unary(true), l);
    return left;
  }

  ExprPtr parse_unary(bool with_filter) {
    Depth d(*this);
    Location l = loc();
    ExprPtr node;
    if (skip_op("-")) {
      node = make(ExprKind::Neg, l);
      node->children.push_back(parse_unary(false));
    } else if (skip_op("+")) {
      node = make(ExprKind::Pos, l);
      node->children.push_back(parse_unary(false));
    } else {
      node = parse_primary();
    }
    node = parse_postfix(std::move(node));
    if (with_filter) node = parse_filter_expr(std::move(node));
    return node;
  }

  ExprPtr parse_primary() {
    Depth d(*this);
    Location l = loc();
    const Token& tok = cur();
    if (tok.type == Tok::Name) {
      ExprPtr n;
      if (tok.text == "true" || tok.text == "True" || tok.text == "false" || tok.text == "False") {
        n = make(ExprKind::Const, l);
        n->value = Value(tok.text == "true" || tok.text == "True");
      } else if (tok.text == "none" || tok.text == "None") {
        n = make(ExprKind::Const, l);
        n->value = Value::none();
      } else {
        n = make(ExprKind::Name, l);
        n->name = intern(tok.text);
        n->attr = tok.text;
      }
      next();
      return n;
    }
    if (tok.type == Tok::String) {
      std::string s;
      while (cur().type == Tok::String) {
        s += cur().text;
        next();
      }
      auto n = make(ExprKind::Const, l);
      // The node owns the text and never moves, so renders copy the constant without counting.
      n->attr = std::move(s);
      n->value = Value::borrowed(n->attr);
      return n;
    }
    if (tok.type == Tok::Integer || tok.type == Tok::Float) {
      auto n = make(ExprKind::Const, l);
      n->value = tok.type == Tok::Integer ? Value(tok.int_value) : Value(tok.float_value);
      next();
      return n;
    }
    if (is_op("(")) {
      next();
      ExprPtr n = parse_tuple(true, {}, true);
      expect_op(")");
      return n;
    }
    if (is_op("[")) {
      next();
      auto n = make(ExprKind::List, l);
      while (!is_op("]")) {
        if (!n->children.empty()) expect_op(",");
        if (is_op("]")) break;
        n->children.push_back(parse_expression(true));
      }
      expect_op("]");
      return n;
    }
    if (is_op("{")) {
      next();
      auto n = make(ExprKind::Dict, l);
      while (!is_op("}")) {
        if (!n->children.empty()) expect_op(",");
        if (is_op("}")) break;
        n->children.push_back(parse_expression(true));
        expect_op(":");
        n->children.push_back(parse_expression(true));
      }
      expect_op("}");
      return n;
    }
    fail("unexpected '" + describe(tok) + "'");
  }

  ExprPtr parse_postfix(ExprPtr node) {
    while (true) {
      if (is_op(".") || is_op("[")) {
        node = parse_subscript(std::move(node));
      } else if (is_op("(")) {
        node = parse_call(std::move(node));
      } else {
        break;
      }
    }
    return node;
  }

  ExprPtr parse_filter_expr(ExprPtr node) {
    while (true) {
      if (is_op("|")) {
        node = parse_filter(std::move(node), false);
      } else if (is_name("is")) {
        node = parse_test(std::move(node));
      } else if (is_op("(")) {
        node = parse_call(std::move(node));
      } else {
        break;
      }
    }
    return node;
  }

  ExprPtr parse_subscript(ExprPtr node) {
    Depth d(*this);
    Location l = loc();
    if (skip_op(".")) {
      if (cur().type == Tok::Name) {
        auto n = make(ExprKind::Getattr, l);
        n->children.push_back(std::move(node));
        n->attr = cur().text;
        n->op = names_dict_attribute(n->attr) ? 0 : kPlainKey;
        n->loop_attr = loop_attr_named(n->attr);
        next();
        return n;
      }
      if (cur().type != Tok::Integer) fail("expected name or number");
      auto n = make(ExprKind::Getitem, l);
      n->children.push_back(std::move(node));
      auto c = make(ExprKind::Const, loc());
      c->value = Value(cur().int_value);
      next();
      n->children.push_back(std::move(c));
      return n;
    }
    next();  // [
    std::vector<ExprPtr> args;
    while (!is_op("]")) {
      if (!args.empty()) expect_op(",");
      args.push_back(parse_subscribed());
    }
    expect_op("]");
    auto n = make(ExprKind::Getitem, l);
    n->children.push_back(std::move(node));
    if (args.size() == 1) {
      n->children.push_back(std::move(args[0]));
    } else {
      auto t = make(ExprKind::Tuple, l);
      t->children = std::move(args);
      n->children.push_back(std::move(t));
    }
    return n;
  }

  ExprPtr parse_subscribed() {
    Location l = loc();
    std::vector<ExprPtr> parts;
    if (is_op(":")) {
      next();
      parts.push_back(nullptr);
    } else {
      ExprPtr e = parse_expression(true);
      if (!is_op(":")) return e;
      next();
      parts.push_back(std::move(e));
    }
    if (is_op(":")) {
      parts.push_back(nullptr);
    } else if (!is_op("]") && !is_op(",")) {
      parts.push_back(parse_expression(true));
    } else {
      parts.push_back(nullptr);
    }
    if (is_op(":")) {
      next();
      if (!is_op("]") && !is_op(",")) {
        parts.push_back(parse_expression(true));
      } else {
        parts.push_back(nullptr);
      }
    } else {
      parts.push_back(nullptr);
    }
    auto n = make(ExprKind::Slice, l);
    n->children = std::move(parts);
    return n;
  }

  void parse_call_args(CallArgs& call) {
    Location l = loc();
    expect_op("(");
    bool require_comma = false;
    auto ensure = [&](bool ok) {
      if (!ok) fail_at("invalid syntax for function call expression", l);
    };
    while (!is_op(")")) {
      if (require_comma) {
        expect_op(",");
        if (is_op(")")) break;
      }
      if (is_op("*")) {
        ensure(!call.dyn_args && !call.dyn_kwargs);
        next();
        call.dyn_args = parse_expression(true);
      } else if (is_op("**")) {
        ensure(!call.dyn_kwargs);
        next();
        call.dyn_kwargs = parse_expression(true);
      } else if (cur().type == Tok::Name && look().type == Tok::Operator && look().text == "=") {
        ensure(!call.dyn_kwargs);
        std::string key = cur().text;
        next();
        next();
        call.kwargs.emplace_back(std::move(key), parse_expression(true));
      } else {
        ensure(!call.dyn_args && !call.dyn_kwargs && call.kwargs.empty());
        call.args.push_back(parse_expression(true));
      }
      require_comma = true;
    }
    expect_op(")");
  }

  ExprPtr parse_call(ExprPtr node) {
    Depth d(*this);
    auto n = make(ExprKind::Call, loc());
    n->children.push_back(std::move(node));
    parse_call_args(n->call);
    return n;
  }

  ExprPtr parse_filter(ExprPtr node, bool start_inline) {
    while (is_op("|") || start_inline) {
      Depth d(*this);
      if (!start_inline) next();
      Location l = loc();
      std::string name = expect_name();
      while (skip_op(".")) {
        name += '.';
        name += expect_name();
      }
      auto n = make(ExprKind::Filter, l);
      n->attr = name;
      n->children.push_back(std::move(node));
      if (is_op("(")) parse_call_args(n->call);
      if (name == "trim" && n->call.empty()) n->op = kTrimFilter;
      if (!is_known_filter(name) && !soft()) fail_at("No filter named '" + name + "'.", l, "TemplateAssertionError");
      node = std::move(n);
      start_inline = false;
    }
    return node;
  }

  ExprPtr parse_test(ExprPtr node) {
    Depth d(*this);
    Location l = loc();
    next();  // is
    bool negated = skip_name("not");
    std::string name = expect_name();
    while (skip_op(".")) name += "." + expect_name();
    auto n = make(ExprKind::Test, l);
    n->attr = name;
    n->children.push_back(std::move(node));
    if (is_op("(")) {
      parse_call_args(n->call);
    } else if ((cur().type == Tok::Name || cur().type == Tok::String || cur().type == Tok::Integer ||
                cur().type == Tok::Float || is_op("(") || is_op("[") || is_op("{")) &&
               !is_name("else") && !is_name("or") && !is_name("and")) {
      if (is_name("is")) fail("You cannot chain multiple tests with is");
      ExprPtr arg = parse_primary();
      n->call.args.push_back(parse_postfix(std::move(arg)));
    }
    if (n->call.empty())
      n->op = name == "none" ? kIsNone : name == "defined" ? kIsDefined : name == "undefined" ? kIsUndefined
            : name == "string" ? kIsString : name == "mapping" ? kIsMapping : kByName;
    if (!is_known_test(name) && !soft()) fail_at("No test named '" + name + "'.", l, "TemplateAssertionError");
    if (!negated) return n;
    auto no = make(ExprKind::Not, l);
    no->children.push_back(std::move(n));
    return no;
  }

  // Inside an if statement or a conditional expression, Jinja2 defers unknown filters and tests
  // to render time. (Approximation: any enclosing if or condexpr not separated by a loop/macro.)
  bool soft() const { return soft_ > 0; }

  std::vector<Token> t_;
  std::size_t i_ = 0;
  std::vector<std::string> names_;
  std::unordered_map<std::string, NameId> ids_;
  int depth_ = 0;
  int loop_depth_ = 0;
  int soft_ = 0;
};

}  // namespace

// Names read before (or without) being set in an enclosing scope, as jinja2.meta.find_undeclared_variables
// reports them: a set inside an if branch only counts after the if when every branch sets it.
class UndeclaredFinder {
 public:
  explicit UndeclaredFinder(const std::vector<std::string>& names) : names_(names), seen_(names.size(), false) {}

  std::vector<std::string> run(const Body& body) {
    std::vector<bool> declared(names_.size(), false);
    for (NameId i = 0; i < kLoop; ++i) declared[i] = true;  // globals
    body_(body, declared);
    return std::move(out_);
  }

 private:
  void expr(const Expr* e, const std::vector<bool>& d) {
    if (!e) return;
    if (e->kind == ExprKind::Name && !d[e->name] && !seen_[e->name]) {
      seen_[e->name] = true;
      out_.push_back(names_[e->name]);
    }
    for (auto& c : e->children) expr(c.get(), d);
    for (auto& c : e->call.args) expr(c.get(), d);
    for (auto& c : e->call.kwargs) expr(c.second.get(), d);
    expr(e->call.dyn_args.get(), d);
    expr(e->call.dyn_kwargs.get(), d);
  }
  void declare(const Target& t, std::vector<bool>& d) {
    if (t.kind == Target::Name) d[t.name] = true;
    for (auto& i : t.items) declare(i, d);
  }
  void macro(const MacroDef& m, std::vector<bool> d) {
    for (auto& def : m.defaults) expr(def.get(), d);
    for (auto p : m.params) d[p] = true;
    d[kCaller] = d[kVarargs] = d[kKwargs] = true;
    body_(m.body, d);
  }
  void body_(const Body& body, std::vector<bool>& d) {
    for (auto& sp : body) {
      const Stmt& s = *sp;
      switch (s.kind) {
        case StmtKind::Output:
        case StmtKind::Unsupported:
          expr(s.expr.get(), d);
          break;
        case StmtKind::If: {
          expr(s.expr.get(), d);
          std::vector<bool> a = d, b = d;
          body_(s.body, a);
          body_(s.else_body, b);
          for (std::size_t i = 0; i < d.size(); ++i) d[i] = a[i] && b[i];
          break;
        }
        case StmtKind::For: {
          expr(s.expr.get(), d);
          std::vector<bool> inner = d;
          declare(s.targets[0], inner);
          inner[kLoop] = true;
          expr(s.filter.get(), inner);
          body_(s.body, inner);
          std::vector<bool> other = d;
          body_(s.else_body, other);
          break;
        }
        case StmtKind::Set:
          expr(s.expr.get(), d);
          if (s.targets[0].kind == Target::NamespaceAttr) {
            Expr ns;
            ns.kind = ExprKind::Name;
            ns.name = s.targets[0].name;
            expr(&ns, d);
          }
          declare(s.targets[0], d);
          break;
        case StmtKind::SetBlock: {
          std::vector<bool> inner = d;
          body_(s.body, inner);
          expr(s.filter.get(), d);
          declare(s.targets[0], d);
          break;
        }
        case StmtKind::Macro:
          macro(*s.macro, d);
          d[s.macro->name_id] = true;
          break;
        case StmtKind::CallBlock:
          expr(s.expr.get(), d);
          macro(*s.macro, d);
          break;
        case StmtKind::FilterBlock: {
          expr(s.filter.get(), d);
          std::vector<bool> inner = d;
          body_(s.body, inner);
          break;
        }
        case StmtKind::With: {
          for (auto& v : s.values) expr(v.get(), d);
          std::vector<bool> inner = d;
          for (auto& t : s.targets) declare(t, inner);
          body_(s.body, inner);
          break;
        }
        case StmtKind::Generation:
        case StmtKind::Block: {
          expr(s.expr.get(), d);
          std::vector<bool> inner = d;
          body_(s.body, inner);
          break;
        }
        default:
          break;
      }
    }
  }

  const std::vector<std::string>& names_;
  std::vector<bool> seen_;
  std::vector<std::string> out_;
};

ParsedTemplate parse(std::vector<Token> tokens) {
  ParsedTemplate t = Parser(std::move(tokens)).run();
  t.undeclared = UndeclaredFinder(t.names).run(t.body);
  for (NameId i = 0; i < t.names.size(); ++i) t.ids.emplace(t.names[i], i);
  std::size_t slots = 16;
  while (slots < 2 * t.ids.size()) slots *= 2;
  t.id_slots.assign(slots, {});
  for (const auto& [name, id] : t.ids)
    for (std::size_t i = (ParsedTemplate::slot_hash(name) >> 7) & (slots - 1);; i = (i + 1) & (slots - 1))
      if (!t.id_slots[i].first.data()) {
        t.id_slots[i] = {name, id};
        break;
      }
  return t;
}

}  // namespace textedge::detail::jinja
