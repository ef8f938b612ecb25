#include "DescribeCommand.h"

#include "ExitCode.h"
#include "ParamOptions.h"
#include "RopeDescription.h"

#include "core/ParamText.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString describeUsage()
{
    return u"Usage: posenc describe [--json] --encoding rope [OPTIONS]\n"
           "Prints the numbers RoPE's parameters derive, as HF transformers' modeling_rope_utils.py\n"
           "computes them, a line \"key: value\" each, or one JSON object with --json; null where a\n"
           "value does not apply to the type. The keys:\n"
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
           "                        fp16 holds at max-len - 1 (fp16: null where it overflows)\n\n"
           "Options:\n"
           "  --json       one JSON object, the keys in this order\n"
           "  -h, --help   show this help\n\n"
           "The parameters come from the flags, a --session file or a --preset, as for every command;\n"
           "they must choose --encoding rope (else exit 2). Exit codes: 0 done, 2 invalid usage or\n"
           "parameter, 3 a file that cannot be read.\n\n"
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
    if (read.params.encoding != Encoding::Rope) {
        err << "posenc describe: --encoding: describe needs --encoding rope; got '"
            << ParamText::toString(read.params.encoding) << "'\n";
        return ExitUsage;
    }
    const bool json = parser.isSet(jsonOption);
    QStringList lines;
    for (const auto &[key, value] : RopeDescription::entries(read.params))
        lines.append(json ? u"\"%1\": %2"_s.arg(key, RopeDescription::text(value, true))
                          : u"%1: %2"_s.arg(key, RopeDescription::text(value, false)));
    if (json)
        out << '{' << lines.join(u", "_s) << "}\n";
    else
        out << lines.join(u'\n') << '\n';
    return ExitDone;
}

} // namespace posenc
