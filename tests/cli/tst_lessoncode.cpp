// Every lesson's code box read for every model a lecturer can pick (its own, every shipped preset,
// every real config of tests/data/configs), as posenc lessons NAME --preset P / --config FILE reads
// it (LessonOptions, in this process): the box is there wherever the lesson applies; where it cites
// a model's code (transformers' models/X/) it is the model's own code, or it opens with one line
// that names the model and says the code is another's; and the code shown computes what the
// lesson's numbers compute: the rotation's pairs (rotate_half's (i, i + d/2) or rotate_every_two's
// (2i, 2i + 1)), a partial rotary's slice, the sinusoid's layout, the layers without position.
// The model's own code is read here from the preset's source and the config's model_type, as
// written by hand in their files, not from the lesson.
#include "cli/LessonOptions.h"
#include "cli/ParamOptions.h"
#include "support/TestMain.h"

#include "check/ModelConfigCheck.h"
#include "check/models/LayerLessonNumbers.h"
#include "core/LessonNumbers.h"
#include "core/ParamTable.h"
#include "core/rope/RopeFrequencies.h"
#include "io/Lesson.h"
#include "io/LessonModels.h"
#include "io/LessonText.h"
#include "io/Preset.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>

namespace tst_lessoncode {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

struct Pick
{
    QStringList arguments;
    QStringList ownFolders; // transformers' models/ folders of the model's own code; empty: unknown
};

QStringList folders(const QString &text)
{
    static const QRegularExpression folder(u"\\bmodels/([a-z0-9_]+)/"_s);
    QStringList out;
    for (auto it = folder.globalMatch(text); it.hasNext();)
        out.append(it.next().captured(1));
    return out;
}

QList<Pick> picks()
{
    QList<Pick> all {{{}, {}}};
    for (const Preset &preset : Presets::shipped().presets) {
        QStringList own = folders(preset.source);
        if (!preset.config.isEmpty()) {
            if (const auto check = LessonModels::example(preset.config))
                own += folders(check->modelFile);
        }
        all.append({{u"--preset"_s, preset.name}, own});
    }
    const QDir configs(QStringLiteral(POSENC_CONFIGS));
    for (const QString &file : configs.entryList({u"*.json"_s}, QDir::Files, QDir::Name))
        all.append({{u"--config"_s, configs.filePath(file)}, {}});
    return all;
}

struct Read
{
    LessonOptions::Read read;
    bool applies = false;
};

Read readFor(const Lesson &lesson, const Pick &pick)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    Read out;
    if (!parser.parse(QStringList {u"posenc"_s} + pick.arguments))
        return out;
    out.read = LessonOptions::read(parser, lesson);
    out.applies = out.read.result.exitCode() == 0 && out.read.result.fileError.isEmpty();
    return out;
}

// The code itself: the box without its comment lines.
QString codeOf(const QString &box)
{
    QStringList lines;
    for (const QString &line : box.split(u'\n')) {
        if (!line.trimmed().startsWith(u'#'))
            lines.append(line);
    }
    return lines.join(u'\n');
}

// Whether code turns adjacent columns (2i, 2i + 1), as each family writes it: GPT-J's
// rotate_every_two, Cohere's rotate_half of x[..., ::2], Llama 4's complex numbers of pairs, or
// DeepSeek's permutation of the pairs to rotate_half's places.
bool pairsAdjacent(const QString &code)
{
    return code.contains(u"rotate_every_two("_s) || code.contains(u"x[..., ::2]"_s)
        || code.contains(u"torch.view_as_complex("_s) || code.contains(u"d // 2, 2).transpose(4, 3)"_s);
}

// Whether the model's RoPE turns the last columns of a wider head, as its config's check reads it
// (ConfigLayer::scheme: DeepSeek's MLA tail) at the rotary dim the parameters turn.
bool turnsTail(const LessonModel &model)
{
    if (!model.config)
        return false;
    for (const ConfigLayer &l : model.config->layers) {
        if (!l.layers.empty() && l.scheme.rotaryPlace == u"mla-tail"_s
            && RopeFrequencies::rotaryDim(l.params.rope) == RopeFrequencies::rotaryDim(model.params.rope))
            return true;
    }
    return false;
}

LessonModel modelFor(const Lesson &lesson, const QStringList &arguments)
{
    QCommandLineParser parser;
    ParamOptions::add(parser);
    if (!parser.parse(QStringList {u"posenc"_s} + arguments))
        return {};
    return LessonOptions::read(parser, lesson).model;
}

} // namespace

class TestLessonCode : public QObject
{
    Q_OBJECT

private slots:
    void everyBoxForEveryModel_data();
    void everyBoxForEveryModel();
    void theParametersChooseTheCode();
    void theTextNamesTheCodeShown_data();
    void theTextNamesTheCodeShown();
    void aModelGetsItsOwnFamilysCode_data();
    void aModelGetsItsOwnFamilysCode();
    void rotaryColumnsAtTheHeadsEnd_data();
    void rotaryColumnsAtTheHeadsEnd();
    void theSentenceNamesTheTurnedColumns();
    void aQueryScaleAfterTheRotationIsSaid();
};

void TestLessonCode::everyBoxForEveryModel_data()
{
    QTest::addColumn<QString>("name");
    for (const Lesson &lesson : Lessons::all()) {
        if (!lesson.code.isEmpty())
            QTest::newRow(qPrintable(lesson.name)) << lesson.name;
    }
}

void TestLessonCode::everyBoxForEveryModel()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    // An alternative needs numbers that exist: a misspelt fact would never be had.
    const QStringList keys = LessonNumbers::keys(LayerLessonNumbers::entries());
    for (const LessonCode::Alternative &alternative : lesson.code.alternatives) {
        for (const QString &need : alternative.needs)
            QVERIFY2(keys.contains(need), qPrintable(name + u": "_s + need));
    }
    int applied = 0, own = 0, others = 0;
    for (const Pick &pick : picks()) {
        const QString what
            = name + u" for "_s + (pick.arguments.isEmpty() ? u"its own model"_s : pick.arguments.join(u' '));
        const Read r = readFor(lesson, pick);
        if (!r.applies)
            continue;
        ++applied;
        const LessonModel &model = r.read.model;
        const QString box = lesson.code.forModel(model);
        QVERIFY2(!box.isEmpty(), qPrintable(what + u": no code"_s));
        QVERIFY2(!box.contains(u'{') && !box.contains(u'}'), qPrintable(what + u":\n"_s + box));
        // The line before the citation, its comment lines joined.
        const qsizetype citation = box.indexOf(u"# transformers, "_s);
        QString firstLine = (citation > 0 ? box.left(citation - 1) : box.section(u'\n', 0, 0));
        firstLine.replace(u"\n# "_s, u" "_s);
        const QStringList cited = folders(box);
        QStringList mine = pick.ownFolders;
        if (model.config)
            mine += folders(model.config->modelFile);
        if (!cited.isEmpty()) {
            // The model's own code, cited on the box's first line; or another family's, said so.
            if (mine.contains(cited.first()) || (model.name.isEmpty() && !model.config)) {
                // The model's own code, or parameters of no one's: the citation first.
                QVERIFY2(firstLine.contains(u"models/%1/"_s.arg(cited.first())), qPrintable(what + u":\n"_s + box));
                own += mine.contains(cited.first()) ? 1 : 0;
            } else {
                // Within a sentence the model is named with its article ("not the TensorFlow
                // Transformer tutorial's").
                const QString named = model.name.isEmpty() ? u"this model"_s : LessonNumbers::nameWithin(model);
                const QString configNamed = model.configTitle.section(u" ("_s, 0, 0);
                QVERIFY2(firstLine.startsWith(u"# "_s) && firstLine.contains(u"'s code"_s)
                             && (firstLine.contains(u"not %1's"_s.arg(named))
                                 || (!configNamed.isEmpty() && firstLine.contains(u"not %1's"_s.arg(configNamed)))),
                         qPrintable(what + u":\n"_s + box));
                QVERIFY2(!firstLine.contains(u"models/"_s), qPrintable(what + u":\n"_s + box));
                ++others;
            }
        }
        // Of the alternatives that write the same facts, each one family's code, the model's own
        // family's is the one shown.
        if (const LessonCode::Alternative *shown = lesson.code.chosen(model)) {
            for (const LessonCode::Alternative &alternative : lesson.code.alternatives) {
                const QStringList of = folders(alternative.text);
                if (alternative.needs == shown->needs && !of.isEmpty() && mine.contains(of.first()))
                    QVERIFY2(!cited.isEmpty() && cited.first() == of.first(), qPrintable(what + u":\n"_s + box));
            }
        }
        const QString code = codeOf(box);
        const Params &p = model.params;
        // A rotation shown is the one the numbers turn: its pairs, how much of a head and where.
        if (code.contains(u"rotate_"_s) || code.contains(u"apply_rotary_emb("_s)) {
            QVERIFY(p.encoding == Encoding::Rope);
            const bool interleaved = p.rope.layout == RopeLayout::Interleaved;
            QVERIFY2(pairsAdjacent(code) == interleaved, qPrintable(what + u":\n"_s + box));
            QVERIFY2(interleaved || code.contains(u"rotate_half("_s), qPrintable(what + u":\n"_s + box));
            // A head's first rotary_dim columns, or its last (DeepSeek's split), or all of it.
            const bool partial = RopeFrequencies::rotaryDim(p.rope) < p.rope.headDim;
            const bool tail = turnsTail(model);
            QVERIFY2(code.contains(u"rotary_dim"_s) == (partial && !tail), qPrintable(what + u":\n"_s + box));
            QVERIFY2(code.contains(u"qk_nope_head_dim"_s) == tail, qPrintable(what + u":\n"_s + box));
        }
        // A sinusoid shown is laid out as the numbers' PE.
        if (code.contains(u"pe[:, 0::2]"_s))
            QVERIFY2(p.sinusoidal.layout == Layout::Interleaved, qPrintable(what));
        if (code.contains(u"torch.cat([scaled_time.sin(), scaled_time.cos()]"_s))
            QVERIFY2(p.sinusoidal.layout == Layout::Split && !p.sinusoidal.flipSinToCos, qPrintable(what));
        // Layers shown are the config's: layers without position where it has them.
        if (model.config && lesson.needs.contains(u"layers"_s)) {
            bool nope = false, scaled = false;
            int kinds = 0;
            for (const ConfigLayer &l : model.config->layers) {
                if (l.layers.empty())
                    continue;
                ++kinds;
                nope = nope || l.scheme.encoding == u"none"_s;
                scaled = scaled || !l.scheme.query.isNone();
            }
            // Llama 4's and SmolLM3's no_rope_layers, or Cohere2's and EXAONE 4's rotation on the
            // sliding layers only.
            const bool skips = code.contains(u"no_rope_layers"_s)
                || code.contains(u"if self.sliding_window is not None:"_s)
                || code.contains(u"if self.sliding_window is None or self.is_sliding:"_s);
            QVERIFY2(skips == nope, qPrintable(what + u":\n"_s + box));
            QVERIFY2(code.contains(u"query_states * "_s) == scaled, qPrintable(what + u":\n"_s + box));
            // Several kinds of layer are never shown as one rotation for all; one kind, never as kinds.
            if (kinds > 1)
                QVERIFY2(!box.contains(u"one rotation for every layer"_s), qPrintable(what + u":\n"_s + box));
            else
                QVERIFY2(!code.contains(u"layer_types"_s), qPrintable(what + u":\n"_s + box));
        }
    }
    QVERIFY2(applied > 0, qPrintable(name));
    qInfo("%s: %d models, %d own code, %d another's with its line", qPrintable(name), applied, own, others);
}

// float32-precision told Stable Diffusion's timestep embedding, whose box is diffusers'
// get_timestep_embedding (timesteps[:, None].float() * emb[None, :]), of "the product position *
// div_term", the tutorial's names: the names of a product a text spells out ("a * b", "multiplies a
// by b") that one of the lesson's boxes holds are in the box shown for the model, unless posenc's
// parameters use them too (max_len, max-len's).
void TestLessonCode::theTextNamesTheCodeShown_data()
{
    everyBoxForEveryModel_data();
}

void TestLessonCode::theTextNamesTheCodeShown()
{
    QFETCH(QString, name);
    const Lesson &lesson = *Lessons::find(name);
    static const QRegularExpression identifier(u"\\b[A-Za-z_][A-Za-z0-9_]*\\b"_s);
    static const QRegularExpression operand(u"[A-Za-z_][\\w.]*(?:\\[[^\\]]*\\])?(?:\\.\\w+\\(\\))?"_s);
    static const QRegularExpression product(u"(%1) \\* (%1)|multipl\\w* (%1) by (%1)"_s.arg(operand.pattern()));
    const auto namesIn = [](const QString &text) {
        QSet<QString> names;
        for (auto it = identifier.globalMatch(text); it.hasNext();) {
            const QString word = it.next().captured(0);
            if (!ParamTable::find(QString(word).replace(u'_', u'-')))
                names.insert(word);
        }
        return names;
    };
    QSet<QString> coded;
    for (const LessonCode::Alternative &alternative : lesson.code.alternatives)
        coded += namesIn(codeOf(alternative.text));
    int read = 0;
    for (const Pick &pick : picks()) {
        const Read r = readFor(lesson, pick);
        if (!r.applies)
            continue;
        ++read;
        const QString shown = codeOf(lesson.code.forModel(r.read.model));
        const QSet<QString> inBox = namesIn(shown);
        for (const QString &item : lesson.explain(r.read.model).items) {
            const QString text = LessonText::plain(item);
            for (auto it = product.globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                for (int part = 1; part <= m.lastCapturedIndex(); ++part)
                    for (const QString &word : namesIn(m.captured(part)))
                        QVERIFY2(!coded.contains(word) || inBox.contains(word),
                                 qPrintable(u"%1 for %2 names %3 (%4), not in the code shown:\n%5\n%6"_s.arg(
                                     name, pick.arguments.join(u' '), word, m.captured(0), text, shown)));
            }
        }
    }
    QVERIFY(read > 0);
}

// Parameters edited away from any preset are no one's model: the box is chosen by their facts and
// cites its source, with no line; GPT-J itself gets its own code, with none either.
void TestLessonCode::theParametersChooseTheCode()
{
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    QCommandLineParser parser;
    ParamOptions::add(parser);
    QVERIFY(parser.parse({u"posenc"_s, u"--preset"_s, u"gpt-j-6b"_s, u"--rope-layout"_s, u"half"_s}));
    const LessonOptions::Read read = LessonOptions::read(parser, lesson);
    QCOMPARE(read.result.exitCode(), 0);
    QVERIFY(read.model.name.isEmpty());
    const QString box = lesson.code.forModel(read.model);
    // Half layout, 64 of 256 columns: GPT-NeoX's slice of rotate_half's pairs.
    QVERIFY2(box.startsWith(u"# transformers, models/gpt_neox/modeling_gpt_neox.py"_s), qPrintable(box));
    QVERIFY2(box.contains(u"q[..., :rotary_dim]"_s) && !box.contains(u"rotate_every_two"_s), qPrintable(box));
    QCommandLineParser gptj;
    ParamOptions::add(gptj);
    QVERIFY(gptj.parse({u"posenc"_s, u"--preset"_s, u"gpt-j-6b"_s}));
    const QString own = lesson.code.forModel(LessonOptions::read(gptj, lesson).model);
    QVERIFY2(own.startsWith(u"# transformers, models/gptj/modeling_gptj.py"_s), qPrintable(own));
    // Qwen2.5 7B turns rotate_half's pairs over its whole head, as Llama's code does, which is not
    // its own (models/qwen2): the box says so first, within the code's width.
    const QString other = lesson.code.forModel(modelFor(lesson, {u"--preset"_s, u"qwen2-5-7b"_s}));
    QVERIFY2(other.startsWith(u"# Llama's code, not Qwen2.5 7B Instruct"_s), qPrintable(other));
    QVERIFY2(other.contains(u"\n# transformers, models/llama/modeling_llama.py"_s), qPrintable(other));
    const QStringList lines = other.split(u'\n');
    const qsizetype widest = std::max_element(lines.cbegin() + 1, lines.cend(), [](const QString &a, const QString &b) {
                                 return a.size() < b.size();
                             })->size();
    QVERIFY2(lines.first().size() <= widest, qPrintable(other));
    // Broken into comment lines of even lengths, each "# " and its words: no "#  " that reads as a
    // gap, no word left alone on the last line.
    QVERIFY2(!other.contains(u"\n#  "_s), qPrintable(other));
    const QStringList comment = other.left(other.indexOf(u"\n# transformers, "_s)).split(u'\n');
    QVERIFY2(comment.size() < 2 || comment.last().count(u' ') >= 2, qPrintable(other));
}

// Models whose facts several families' code computes get their own family's code with no line:
// Mistral and Devstral (rotate_half over the whole head), Command R7B, Llama 4 and Kimi K2 (pairs
// (2i, 2i + 1) over the whole head, each family's transcription).
void TestLessonCode::aModelGetsItsOwnFamilysCode_data()
{
    QTest::addColumn<QString>("lessonName");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("computes");
    QTest::newRow("mistral-7b") << u"rope-relative"_s << u"mistral-7b"_s << u"models/mistral/modeling_mistral.py"_s
                                << u"x2 = x[..., x.shape[-1] // 2 :]"_s;
    QTest::newRow("devstral-small-2") << u"rope-relative"_s << u"devstral-small-2"_s
                                      << u"models/ministral3/modeling_ministral3.py"_s << u"_get_llama_4_attn_scale("_s;
    // transformers' modeling_cohere2.py, rotate_half: x[..., ::2] and x[..., 1::2], stacked.
    QTest::newRow("command-r7b") << u"rope-relative"_s << u"command-r7b"_s << u"models/cohere2/modeling_cohere2.py"_s
                                 << u"rot_x = torch.stack([-x2, x1], dim=-1).flatten(-2)"_s;
    // modeling_llama4.py, apply_rotary_emb: the head reshaped to pairs as complex numbers.
    QTest::newRow("llama-4-scout") << u"rope-relative"_s << u"llama-4-scout"_s << u"models/llama4/modeling_llama4.py"_s
                                   << u"torch.view_as_complex("_s;
    // Kimi K2's preset names no config: its 64 rotary columns are its whole head here, and
    // DeepSeek-V3's apply_rotary_pos_emb_interleave (its code) turns them.
    QTest::newRow("kimi-k2") << u"rope-relative"_s << u"kimi-k2"_s << u"models/deepseek_v3/modeling_deepseek_v3.py"_s
                             << u"def apply_rotary_pos_emb_interleave("_s;
    // GLM-4.5 was shown GPT-NeoX's code as another's; modeling_glm4_moe.py's apply_rotary_pos_emb
    // turns the first rotary_dim = cos.shape[-1] columns with rotate_half and passes the rest.
    QTest::newRow("glm-4-5") << u"rope-relative"_s << u"glm-4-5"_s << u"models/glm4_moe/modeling_glm4_moe.py"_s
                             << u"q_rot, q_pass = q[..., :rotary_dim], q[..., rotary_dim:]"_s;
    // many-layers showed gpt-oss-20b Gemma 3's layer types, whose sliding layers turn with their own
    // θ (rope_local_base_freq); modeling_gpt_oss.py gives every layer the same cos and sin and each
    // its own type's mask (GptOssModel.forward), and its config alternates the types by (i + 1) % 2.
    QTest::newRow("gpt-oss-20b layers") << u"many-layers"_s << u"gpt-oss-20b"_s
                                        << u"models/gpt_oss/configuration_gpt_oss.py"_s << u"causal_mask_mapping["_s;
}

void TestLessonCode::aModelGetsItsOwnFamilysCode()
{
    QFETCH(QString, lessonName);
    QFETCH(QString, preset);
    QFETCH(QString, source);
    QFETCH(QString, computes);
    const Lesson &lesson = *Lessons::find(lessonName);
    const LessonModel model = modelFor(lesson, {u"--preset"_s, preset});
    QVERIFY(!model.name.isEmpty());
    const QString box = lesson.code.forModel(model);
    QVERIFY2(box.startsWith(u"# transformers, "_s + source), qPrintable(box));
    QVERIFY2(box.contains(computes), qPrintable(box));
    QVERIFY2(!box.contains(u"not "_s + model.name), qPrintable(box));
}

// DeepSeek-V3 turns the last qk_rope_head_dim columns of each query-key head of qk_nope_head_dim +
// qk_rope_head_dim, as its config says (tests/data/configs/DeepSeek-V3.json, read here as JSON):
// its box splits the head so (modeling_deepseek_v3.py, DeepseekV3Attention.forward) and the
// sentence that names the turned columns gives the config's numbers. Read from the config itself,
// and from the preset whose example config it is; Kimi K2's config runs the same code.
void TestLessonCode::rotaryColumnsAtTheHeadsEnd_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("config");
    const QString configs = QStringLiteral(POSENC_CONFIGS);
    QTest::newRow("preset deepseek-v3") << QStringList {u"--preset"_s, u"deepseek-v3"_s} << u"DeepSeek-V3.json"_s;
    QTest::newRow("config DeepSeek-V3") << QStringList {u"--config"_s, configs + u"/DeepSeek-V3.json"_s}
                                        << u"DeepSeek-V3.json"_s;
    QTest::newRow("config Kimi-K2") << QStringList {u"--config"_s, configs + u"/Kimi-K2-Instruct.json"_s}
                                    << u"Kimi-K2-Instruct.json"_s;
}

void TestLessonCode::rotaryColumnsAtTheHeadsEnd()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, config);
    QFile file(QStringLiteral(POSENC_CONFIGS) + u'/' + config);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    const int nope = json.value(u"qk_nope_head_dim"_s).toInt();
    const int rope = json.value(u"qk_rope_head_dim"_s).toInt();
    QVERIFY(nope > 0 && rope > 0);
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    const LessonModel model = modelFor(lesson, arguments);
    QVERIFY(model.config);
    const QString box = lesson.code.forModel(model);
    QVERIFY2(box.contains(u"models/deepseek_v3/modeling_deepseek_v3.py"_s), qPrintable(box));
    QVERIFY2(box.contains(u"[self.qk_nope_head_dim, self.qk_rope_head_dim]"_s), qPrintable(box));
    QVERIFY2(box.contains(u"torch.cat((q_pass, q_rot), dim=-1)"_s), qPrintable(box));
    const QString text = LessonText::plain(lesson.explain(model).html);
    const QString said = u"the last r = %1 of a query or key head's %2 columns (its first %3 do not turn)"_s.arg(rope)
                             .arg(nope + rope)
                             .arg(nope);
    QVERIFY2(text.contains(said), qPrintable(text));
}

// The sentence that names the columns RoPE turns says how much of a head, for every RoPE preset
// without a config of its heads: the first int(head_dim · partial_rotary_factor) of head_dim, or
// the whole head, from the preset's own values (proportional RoPE's zero-frequency tail aside).
void TestLessonCode::theSentenceNamesTheTurnedColumns()
{
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    int partials = 0;
    for (const Preset &preset : Presets::shipped().presets) {
        const ParamTexts &values = preset.params;
        if (values.value(u"encoding"_s) != u"rope"_s || values.value(u"rope-type"_s) == u"proportional"_s
            || !preset.config.isEmpty())
            continue;
        const int head = values.value(u"head-dim"_s).toInt();
        const double factor = values.value(u"partial-rotary-factor"_s, u"1"_s).toDouble();
        QVERIFY2(head > 0, qPrintable(preset.name));
        const QString text = LessonText::plain(lesson.explain(modelFor(lesson, {u"--preset"_s, preset.name})).html);
        const int turned = int(head * factor);
        const QString said = turned < head
            ? u"the first r = %1 of a query or key head's %2 columns (the others pass unturned)"_s.arg(turned).arg(head)
            : u"turns each pair of a head's query and key columns"_s;
        QVERIFY2(text.contains(said), qPrintable(preset.name + u":\n"_s + text));
        partials += turned < head ? 1 : 0;
    }
    QVERIFY(partials >= 3); // GPT-NeoX, GPT-J, Phi-4 mini, ...
}

// Devstral's code multiplies each turned query by 1 + beta·ln(1 + floor(p / L0))
// (modeling_ministral3.py, _get_llama_4_attn_scale), so its score does not follow the distance
// alone: rope-relative says so, with beta and L0 of its config (read here as JSON). Llama 4 Scout
// scales only its NoPE layers' queries, Llama 3.1 none: neither is told it.
void TestLessonCode::aQueryScaleAfterTheRotationIsSaid()
{
    QFile file(QStringLiteral(POSENC_CONFIGS) + u"/Devstral-Small-2-24B-Instruct.json"_s);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject rope = QJsonDocument::fromJson(file.readAll())
                                 .object()
                                 .value(u"text_config"_s)
                                 .toObject()
                                 .value(u"rope_parameters"_s)
                                 .toObject();
    const double beta = rope.value(u"llama_4_scaling_beta"_s).toDouble();
    const int original = rope.value(u"original_max_position_embeddings"_s).toInt();
    QVERIFY(beta > 0 && original > 0);
    const Lesson &lesson = *Lessons::find(u"rope-relative"_s);
    const QString devstral
        = LessonText::plain(lesson.explain(modelFor(lesson, {u"--preset"_s, u"devstral-small-2"_s})).html);
    const QString said
        = u"then multiplies each query by 1 + %1 ln(1 + floor(p / %2)), a factor of the query's position"_s.arg(beta)
              .arg(original);
    QVERIFY2(devstral.contains(said), qPrintable(devstral));
    for (const QString &preset : {u"llama-4-scout"_s, u"llama-3-1-8b"_s}) {
        const QString text = LessonText::plain(lesson.explain(modelFor(lesson, {u"--preset"_s, preset})).html);
        QVERIFY2(!text.contains(u"multiplies each query"_s) && text.contains(u"not where the two tokens sit."_s),
                 qPrintable(text));
    }
}

POSENC_TEST_GUILESS_MAIN(TestLessonCode)
} // namespace tst_lessoncode
#include "tst_lessoncode.moc"
