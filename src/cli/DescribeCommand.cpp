#include "DescribeCommand.h"

#include "ExitCode.h"
#include "HelpText.h"
#include "JsonOutput.h"
#include "ParamOptions.h"

#include "core/Description.h"
#include "core/FamilyInference.h"
#include "core/ParamText.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// What each key of posenc describe means, as its family's reference code computes it; the keys
// themselves, and which families have them, come from Description.
const QList<std::pair<QString, QString>> &keyMeanings()
{
    static const QList<std::pair<QString, QString>> meanings {
        {u"rope_type"_s, u"the type, as HF transformers' modeling_rope_utils.py computes it"_s},
        {u"rotary_dim"_s, u"the columns of a head that turn"_s},
        {u"attention_factor"_s, u"what multiplies cos and sin"_s},
        {u"softmax_scale_factor"_s,
         u"yarn with mscale_all_dim: get_mscale(f, mscale_all_dim)^2, which DeepSeek-style "
         "attention multiplies its softmax scale by; else 1"_s},
        {u"logit_scale"_s, u"attention_factor^2 * softmax_scale_factor: the scaling's effect on q.k"_s},
        {u"band_low"_s, u"yarn's correction range before rounding and clamping: its low end"_s},
        {u"band_high"_s, u"its high end"_s},
        {u"band_low_used"_s, u"the low end as used"_s},
        {u"band_high_used"_s, u"the high end as used"_s},
        {u"pairs_kept"_s, u"llama3's pairs kept, or yarn's pairs with ramp 0"_s},
        {u"pairs_blended"_s, u"llama3's pairs blended, or yarn's between 0 and 1"_s},
        {u"pairs_divided"_s, u"llama3's pairs divided by the factor, or yarn's with ramp 1"_s},
        {u"wavelength_min"_s, u"2 pi / theta after scaling, the shortest (frequencies of 0 left out)"_s},
        {u"wavelength_max"_s, u"the longest"_s},
        {u"critical_dimension"_s,
         u"Liu et al. 2023: 2 ceil((r/2) log_theta(L0 / 2 pi)), L0 the original context (or "
         "max-len without one)"_s},
        {u"bf16_position_step"_s, u"the gap between neighbouring positions bf16 holds at max-len - 1"_s},
        {u"fp16_position_step"_s, u"the same in fp16 (null where it overflows)"_s},
        {u"heads"_s, u"ALiBi's H (get_slopes of ofirpress/attention_with_linear_biases)"_s},
        {u"head"_s, u"the head K, 1..H"_s},
        {u"mask"_s, u"causal or symmetric"_s},
        {u"slope"_s, u"m_K, head K's slope"_s},
        {u"slopes"_s, u"m_1 .. m_H"_s},
        {u"geometric_heads"_s, u"2^floor(log2 H): the heads whose slopes are 2^(-8k/geometric_heads)"_s},
        {u"interleaved_heads"_s, u"H - geometric_heads: every other slope of twice that power"_s},
        {u"half_weight_distance"_s, u"ln 2 / m_K: the distance at which head K's bias reaches -ln 2"_s},
        {u"farthest_bias"_s, u"-m_K (max-len - 1): the bias of the farthest key"_s},
        {u"buckets"_s, u"the buckets (T5: relative_attention_num_buckets; DeBERTa: position_buckets)"_s},
        {u"max_distance"_s, u"T5's relative_attention_max_distance (HF's _relative_position_bucket, in float32)"_s},
        {u"direction"_s, u"bidirectional (the encoder) or causal (the decoder)"_s},
        {u"side_buckets"_s, u"n: buckets / 2 when bidirectional, else buckets"_s},
        {u"max_exact"_s, u"n / 2: each distance below it is its own bucket"_s},
        {u"log_bucket_starts"_s,
         u"the first distance of each logarithmic bucket max_exact .. n - 1 (a bucket no "
         "distance falls in starts where the next one does)"_s},
        {u"empty_buckets"_s, u"logarithmic buckets that no distance falls in"_s},
        {u"last_bucket_start"_s, u"every key at this distance or farther shares bucket n - 1"_s},
        {u"max_position"_s, u"DeBERTa's max_relative_positions (HF's make_log_bucket_position, in float32)"_s},
        {u"mid"_s, u"buckets / 2: each |i - j| <= mid is its own bucket"_s},
        {u"log_start"_s, u"mid + 1, the first distance in a logarithmic bucket"_s},
        {u"bucket_at_max_position"_s, u"the bucket of i - j = max_position"_s},
        {u"bucket_at_max_len"_s, u"the bucket of i - j = max-len - 1"_s},
        {u"capped"_s, u"false: the bucket goes on growing past max_position (1000 is 317 at 256 and 512)"_s},
    };
    return meanings;
}

QString meaningOf(const QString &key)
{
    for (const auto &[name, meaning] : keyMeanings()) {
        if (name == key)
            return meaning;
    }
    return {};
}

// The families posenc describe has numbers for.
QList<Encoding> describedFamilies()
{
    QList<Encoding> described;
    for (const Encoding family : FamilyInference::families()) {
        Params params;
        params.encoding = family;
        if (Description::entries(params))
            described.append(family);
    }
    return described;
}

} // namespace

QList<CommandOption> describeOptions()
{
    return {{{u"json"_s}, {}, u"one JSON object, the keys in the order below after \"format\" and \"version\""_s},
            CommandOptions::help()};
}

HelpPage describeHelp()
{
    HelpPage page;
    page.topic = u"describe"_s;
    QStringList words;
    for (const Encoding family : describedFamilies())
        words.append(FamilyInference::word(family));
    page.usage = {u"posenc describe [--json] [--encoding %1] [OPTIONS]"_s.arg(words.join(u'|'))};
    page.section().paragraph(
        u"Prints the numbers a family's parameters derive, as its reference code computes them, a line \"key: "
        "value\" each (a list's items joined by ','), or one JSON object with --json; null where a value does not "
        "apply. The family comes from --encoding, a --session file or a --preset, or from a family's parameter "
        "given (describe --rope-theta 500000 is RoPE's); describe has numbers for %1 only (else exit 2)."_s.arg(
            words.join(u", "_s)));
    for (const Encoding family : describedFamilies()) {
        Params params;
        params.encoding = family;
        QList<HelpItem> keys;
        const Description::Entries entries = Description::entries(params).value_or(Description::Entries());
        for (const auto &[key, value] : entries)
            keys.append({key, meaningOf(key)});
        page.section(u"Keys of --encoding "_s + FamilyInference::word(family)).items(keys);
    }
    QList<HelpItem> options;
    for (const CommandOption &option : describeOptions())
        options.append({option.spelling(), option.help});
    page.section(u"Options"_s).items(options);
    page.section(u"Parameters"_s)
        .paragraph(u"Every parameter flag (posenc help parameters), --session FILE and --preset NAME."_s);
    page.section(u"Examples"_s)
        .examples({{u"posenc describe --preset llama-3-1-8b"_s, u"Llama 3.1's scaled RoPE"_s},
                   {u"posenc describe --json --preset gpt-oss-20b"_s, u"gpt-oss's YaRN as JSON"_s},
                   {u"posenc describe --heads 12 --head 9"_s, u"ALiBi's slopes of 12 heads"_s},
                   {u"posenc describe --json --t5-causal"_s, u"T5's decoder buckets"_s}});
    page.section(u"Exit status"_s)
        .items({{u"0"_s, u"the numbers were printed"_s},
                {u"2"_s, u"an invalid option or parameter, or a family without numbers to describe"_s},
                {u"3"_s, u"a --session file that cannot be read"_s}});
    return page;
}

namespace { } // namespace

int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    CommandOptions::add(parser, describeOptions());
    ParamOptions::add(parser);
    if (!parser.parse(arguments)) {
        err << "posenc describe: " << parser.errorText() << " (see posenc describe --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(u"help"_s)) {
        out << HelpText::render(describeHelp(), HelpText::width());
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc describe: unexpected argument '" << parser.positionalArguments().constFirst()
            << "' (see posenc describe --help)\n";
        return ExitUsage;
    }
    // Only some families have numbers to describe: describe chooses among them.
    const ParamOptions::Clues clues {{u"posenc describe"_s, [](const Params &params) {
                                          Params family;
                                          family.encoding = params.encoding;
                                          return Description::entries(family).has_value();
                                      }}};
    const ParamOptions::Result read = ParamOptions::read(parser, clues);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc describe: " << line << '\n';
        return read.exitCode();
    }
    const std::optional<Description::Entries> entries = Description::entries(read.params);
    if (!entries) {
        QStringList words;
        for (const Encoding family : describedFamilies())
            words.append(FamilyInference::word(family));
        err << "posenc describe: --encoding: describe has numbers for " << words.join(u", "_s) << " only; got '"
            << ParamText::toString(read.params.encoding) << "'\n";
        return ExitUsage;
    }
    const bool json = parser.isSet(u"json"_s);
    QStringList lines;
    for (const auto &[key, value] : *entries)
        lines.append(json ? u"\"%1\": %2"_s.arg(key, Description::text(value, true))
                          : u"%1: %2"_s.arg(key, Description::text(value, false)));
    if (json)
        out << '{' << JsonOutput::head(u"describe"_s) << ", " << lines.join(u", "_s) << "}\n";
    else
        out << lines.join(u'\n') << '\n';
    return ExitDone;
}

} // namespace posenc
