#include "DescribeCommand.h"

#include "core/Description.h"
#include "ExitCode.h"
#include "ParamOptions.h"

#include "core/ParamText.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString describeUsage()
{
    return u"Usage: posenc describe [--json] --encoding rope|alibi|t5|deberta [OPTIONS]\n"
           "Prints the numbers a family's parameters derive, as its reference code computes them, a line\n"
           "\"key: value\" each (a list's items joined by ','), or one JSON object with --json; null where a\n"
           "value does not apply. The keys of --encoding rope, as HF transformers' modeling_rope_utils.py\n"
           "computes them:\n"
           "  rope_type             the type\n"
           "  rotary_dim            the columns of a head that turn\n"
           "  attention_factor      what multiplies cos and sin\n"
           "  softmax_scale_factor  yarn with mscale_all_dim: get_mscale(f, mscale_all_dim)^2, which\n"
           "                        DeepSeek-style attention multiplies its softmax scale by; else 1\n"
           "  logit_scale           attention_factor^2 * softmax_scale_factor: the scaling's effect on q.k\n"
           "  band_low, band_high   yarn's correction range before rounding and clamping\n"
           "  band_low_used, band_high_used  the same as used\n"
           "  pairs_kept, pairs_blended, pairs_divided  llama3's bands, or yarn's pairs with ramp 0,\n"
           "                        between, 1\n"
           "  wavelength_min, wavelength_max  2 pi / theta after scaling (frequencies of 0 left out)\n"
           "  critical_dimension    Liu et al. 2023: 2 ceil((r/2) log_theta(L0 / 2 pi)), L0 the original\n"
           "                        context (or max-len without one)\n"
           "  bf16_position_step, fp16_position_step  the gap between neighbouring positions bf16 or\n"
           "                        fp16 holds at max-len - 1 (fp16: null where it overflows)\n"
           "Of --encoding alibi (get_slopes of ofirpress/attention_with_linear_biases):\n"
           "  heads, head           H and the head K (1..H)\n"
           "  mask                  causal or symmetric\n"
           "  slope                 m_K, head K's slope\n"
           "  slopes                m_1 .. m_H\n"
           "  geometric_heads       2^floor(log2 H): the heads whose slopes are 2^(-8k/geometric_heads)\n"
           "  interleaved_heads     H - geometric_heads: every other slope of twice that power\n"
           "  half_weight_distance  ln 2 / m_K: the distance at which head K's bias reaches -ln 2\n"
           "  farthest_bias         -m_K (max-len - 1): the bias of the farthest key\n"
           "Of --encoding t5 (HF's _relative_position_bucket, its logarithm in float32):\n"
           "  buckets, max_distance the parameters\n"
           "  direction             bidirectional (the encoder) or causal (the decoder)\n"
           "  side_buckets          n: buckets / 2 when bidirectional, else buckets\n"
           "  max_exact             n / 2: each distance below it is its own bucket\n"
           "  log_bucket_starts     the first distance of each logarithmic bucket max_exact .. n - 1 (a\n"
           "                        bucket no distance falls in starts where the next one does)\n"
           "  empty_buckets         logarithmic buckets that no distance falls in\n"
           "  last_bucket_start     every key at this distance or farther shares bucket n - 1\n"
           "Of --encoding deberta (HF's make_log_bucket_position, in float32):\n"
           "  buckets, max_position the parameters\n"
           "  mid                   buckets / 2: each |i - j| <= mid is its own bucket\n"
           "  log_start             mid + 1, the first distance in a logarithmic bucket\n"
           "  bucket_at_max_position, bucket_at_max_len  the buckets of i - j = max_position and\n"
           "                        max-len - 1\n"
           "  capped                false: the bucket goes on growing past max_position (1000 is 317 at\n"
           "                        256 and 512)\n\n"
           "Options:\n"
           "  --json       one JSON object, the keys in this order\n"
           "  -h, --help   show this help\n\n"
           "The parameters come from the flags, a --session file or a --preset, as for every command;\n"
           "they must choose --encoding rope, alibi, t5 or deberta (else exit 2). Exit codes: 0 done, 2\n"
           "invalid usage or parameter, 3 a file that cannot be read.\n\n"
           "Parameters:\n%1"_s.arg(ParamOptions::helpText());
}

} // namespace

int runDescribeCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption jsonOption(u"json"_s, u"Print one JSON object."_s);
    const QCommandLineOption helpOption({u"h"_s, u"help"_s}, u"Show this help."_s);
    parser.addOptions({jsonOption, helpOption});
    ParamOptions::add(parser);
    if (!parser.parse(arguments)) {
        err << "posenc describe: " << parser.errorText() << " (see posenc describe --help)\n";
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        out << describeUsage();
        return ExitDone;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "posenc describe: unexpected argument '" << parser.positionalArguments().constFirst()
            << "' (see posenc describe --help)\n";
        return ExitUsage;
    }
    const ParamOptions::Result read = ParamOptions::read(parser);
    if (read.exitCode() != ExitDone) {
        for (const QString &line : read.messages())
            err << "posenc describe: " << line << '\n';
        return read.exitCode();
    }
    const std::optional<Description::Entries> entries = Description::entries(read.params);
    if (!entries) {
        err << "posenc describe: --encoding: describe needs --encoding rope, alibi, t5 or deberta; got '"
            << ParamText::toString(read.params.encoding) << "'\n";
        return ExitUsage;
    }
    const bool json = parser.isSet(jsonOption);
    QStringList lines;
    for (const auto &[key, value] : *entries)
        lines.append(json ? u"\"%1\": %2"_s.arg(key, Description::text(value, true))
                          : u"%1: %2"_s.arg(key, Description::text(value, false)));
    if (json)
        out << '{' << lines.join(u", "_s) << "}\n";
    else
        out << lines.join(u'\n') << '\n';
    return ExitDone;
}

} // namespace posenc
