#include "FigureExportDialog.h"

#include "FigureExportPresets.h"
#include "FileDialogs.h"
#include "ParamLabels.h"
#include "Settings.h"
#include "WriteDialogs.h"

#include "render/FigureFile.h"
#include "render/FigureRegistry.h"

#include "ui_FigureExportDialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QTimer>

#include <cmath>
#include <variant>

using namespace Qt::StringLiterals;

namespace posenc {

FigureExportDialog::FigureExportDialog(QList<FigureSource> sources, int current, QSettings *settings, QWidget *parent)
    : QDialog(parent)
    , m_ui(std::make_unique<Ui::FigureExportDialog>())
    , m_sources(std::move(sources))
    , m_settings(settings)
    , m_scheduler(new ComputeScheduler(this))
    , m_measureScheduler(new ComputeScheduler(this))
    , m_measureTimer(new QTimer(this))
{
    Q_ASSERT(!m_sources.isEmpty());
    Ui::FigureExportDialog &ui = *m_ui;
    ui.setupUi(this);
    ui.buttons->button(QDialogButtonBox::Save)->setText(tr("&Export"));
    for (const FigureSource &s : m_sources)
        ui.figureBox->addItem(s.name);
    ui.formatBox->addItem(tr("PNG image"), static_cast<int>(FigureFormat::Png));
    ui.formatBox->addItem(tr("SVG vector drawing"), static_cast<int>(FigureFormat::Svg));
    ui.formatBox->addItem(tr("PDF document"), static_cast<int>(FigureFormat::Pdf));
    for (const FigureExportPresets::PresetSize &p : FigureExportPresets::all())
        ui.presetBox->addItem(tr(p.label), p.key);
    ui.unitBox->setAccessibleName(tr("Unit of the size"));
    // The label "Width × height" is the width's: each field its own name.
    ui.widthSpin->setAccessibleName(tr("Width of the figure"));
    ui.heightSpin->setAccessibleName(tr("Height of the figure"));
    ui.unitBox->addItem(tr("cm"), static_cast<int>(Unit::Cm));
    ui.unitBox->addItem(tr("in"), static_cast<int>(Unit::In));
    ui.unitBox->addItem(tr("px"), static_cast<int>(Unit::Px));
    for (QComboBox *box : {ui.figureBox, ui.formatBox, ui.presetBox})
        box->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    for (QDoubleSpinBox *spin : {ui.widthSpin, ui.heightSpin}) {
        spin->setRange(0.1, FigureFile::kMaxSide);
        spin->setKeyboardTracking(false);
        spin->setMinimumWidth(90);
    }
    ui.fontSpin->setToolTip(tr("Size of the axis labels; every text of the figure scales with it"));
    ui.dpiSpin->setToolTip(tr("Pixels per inch of a PNG; the page size of SVG and PDF is the physical size"));
    ui.messageLabel->setVisible(false);
    ui.messageLabel->setStyleSheet(u"QLabel { color: #b03a2e; }"_s);

    const Settings::ExportChoices choices
        = m_settings ? Settings::loadExportChoices(*m_settings) : Settings::ExportChoices {};
    ui.dpiSpin->setValue(choices.dpi);
    for (const FigureFormat f : {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}) {
        if (FigureExporter::extension(f) == choices.format)
            setFormat(f);
    }
    const int presetIndex = ui.presetBox->findData(choices.preset);
    ui.figureBox->setCurrentIndex(std::clamp(current, 0, static_cast<int>(m_sources.size()) - 1));
    const QString directory = choices.directory.isEmpty() ? QDir::currentPath() : choices.directory;
    ui.pathEdit->setText(
        QDir(directory).filePath(u"%1.%2"_s.arg(source().figure->name(), FigureExporter::extension(format()))));

    // Choices made in a row (a title typed, a dpi stepped) weigh the page once.
    m_measureTimer->setSingleShot(true);
    m_measureTimer->setInterval(250);
    connect(m_measureTimer, &QTimer::timeout, this, &FigureExportDialog::measure);
    connect(ui.presetBox, &QComboBox::currentIndexChanged, this, &FigureExportDialog::presetChosen);
    connect(ui.unitBox, &QComboBox::currentIndexChanged, this, &FigureExportDialog::unitChosen);
    connect(ui.formatBox, &QComboBox::currentIndexChanged, this, &FigureExportDialog::formatChosen);
    connect(ui.pathEdit, &QLineEdit::textEdited, this, &FigureExportDialog::pathEdited);
    connect(ui.browseButton, &QPushButton::clicked, this, &FigureExportDialog::browse);
    connect(ui.figureBox, &QComboBox::currentIndexChanged, this, [this] {
        // A file still named after a figure is named after the new one.
        const QFileInfo info(path());
        if (FigureRegistry::find(info.completeBaseName()))
            m_ui->pathEdit->setText(QDir(info.path()).filePath(u"%1.%2"_s.arg(source().figure->name(), info.suffix())));
        if (preset() == Preset::Window)
            presetChosen();
        choicesChanged();
    });
    connect(ui.widthSpin, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_filling)
            choicesChanged();
    });
    connect(ui.heightSpin, &QDoubleSpinBox::valueChanged, this, [this] {
        // A height typed in is the user's: the page keeps it, as `posenc export --size 8.5x6cm` does.
        if (m_filling)
            return;
        m_heightGiven = true;
        choicesChanged();
    });
    connect(ui.dpiSpin, &QSpinBox::valueChanged, this, &FigureExportDialog::choicesChanged);
    connect(ui.fontSpin, &QDoubleSpinBox::valueChanged, this, &FigureExportDialog::choicesChanged);
    connect(ui.titleEdit, &QLineEdit::textChanged, this, &FigureExportDialog::choicesChanged);
    connect(ui.buttons, &QDialogButtonBox::accepted, this, &FigureExportDialog::save);
    connect(ui.buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // A custom size starts from the single column's.
    fill(FigureExportPresets::of(Preset::SingleColumn).width, FigureExportPresets::of(Preset::SingleColumn).height,
         Unit::Cm);
    ui.presetBox->setCurrentIndex(std::max(0, presetIndex));
    presetChosen();
}

FigureExportDialog::~FigureExportDialog() = default;

const FigureSource &FigureExportDialog::source() const
{
    return m_sources.at(std::max(0, m_ui->figureBox->currentIndex()));
}

void FigureExportDialog::setFigure(int index)
{
    m_ui->figureBox->setCurrentIndex(index);
}

void FigureExportDialog::setFormat(FigureFormat format)
{
    m_ui->formatBox->setCurrentIndex(m_ui->formatBox->findData(static_cast<int>(format)));
}

FigureFormat FigureExportDialog::format() const
{
    return static_cast<FigureFormat>(m_ui->formatBox->currentData().toInt());
}

void FigureExportDialog::setPreset(Preset preset)
{
    m_ui->presetBox->setCurrentIndex(static_cast<int>(preset));
}

FigureExportDialog::Preset FigureExportDialog::preset() const
{
    return static_cast<Preset>(std::max(0, m_ui->presetBox->currentIndex()));
}

FigureExportDialog::Unit FigureExportDialog::unit() const
{
    return static_cast<Unit>(m_ui->unitBox->currentData().toInt());
}

void FigureExportDialog::setDimensions(double width, double height, Unit unit)
{
    fill(width, height, unit);
    m_heightGiven = true;
    choicesChanged();
}

void FigureExportDialog::fill(double width, double height, Unit unit)
{
    const QScopedValueRollback filling(m_filling, true);
    {
        const QSignalBlocker block(m_ui->unitBox);
        m_ui->unitBox->setCurrentIndex(m_ui->unitBox->findData(static_cast<int>(unit)));
    }
    m_unit = unit;
    m_ui->widthSpin->setDecimals(unit == Unit::Px ? 0 : 2);
    m_ui->heightSpin->setDecimals(unit == Unit::Px ? 0 : 2);
    m_ui->widthSpin->setValue(width);
    m_ui->heightSpin->setValue(height);
}

void FigureExportDialog::setDpi(int dpi)
{
    m_ui->dpiSpin->setValue(dpi);
}

void FigureExportDialog::setFontPointSize(double points)
{
    m_ui->fontSpin->setValue(points);
}

void FigureExportDialog::setTitle(const QString &title)
{
    m_ui->titleEdit->setText(title);
}

void FigureExportDialog::setPath(const QString &path)
{
    m_ui->pathEdit->setText(path);
    pathEdited();
}

QString FigureExportDialog::path() const
{
    return m_ui->pathEdit->text().trimmed();
}

QString FigureExportDialog::message() const
{
    return m_ui->messageLabel->isHidden() ? QString() : m_ui->messageLabel->text();
}

void FigureExportDialog::presetChosen()
{
    const Preset chosen = preset();
    const FigureExportPresets::PresetSize &p = FigureExportPresets::of(chosen);
    Ui::FigureExportDialog &ui = *m_ui;
    m_heightGiven = false;
    if (chosen == Preset::Window) {
        const QSize pixels = source().viewSize;
        fill(pixels.width(), pixels.height(), Unit::Px);
    } else if (chosen != Preset::Custom) {
        fill(p.width, p.height, Unit::Cm);
    }
    const bool custom = chosen == Preset::Custom;
    ui.widthSpin->setEnabled(custom);
    ui.heightSpin->setEnabled(custom || p.heightEditable);
    ui.unitBox->setEnabled(custom);
    // The window's own size is drawn as on screen, one pixel per layout unit: no dpi.
    ui.dpiSpin->setEnabled(chosen != Preset::Window);
    choicesChanged();
}

void FigureExportDialog::unitChosen()
{
    // The same size in the new unit (pixels at the dpi).
    const Unit to = unit();
    const double dpi = m_ui->dpiSpin->value();
    const double factor = FigureExportPresets::inchesPer(m_unit, dpi) / FigureExportPresets::inchesPer(to, dpi);
    fill(m_ui->widthSpin->value() * factor, m_ui->heightSpin->value() * factor, to);
    choicesChanged();
}

void FigureExportDialog::formatChosen()
{
    // The file name follows the format.
    const QString current = path();
    if (!current.isEmpty()) {
        const QFileInfo info(current);
        const QString base = FigureExporter::formatOf(current) ? info.completeBaseName() : info.fileName();
        m_ui->pathEdit->setText(QDir(info.path()).filePath(base + u'.' + FigureExporter::extension(format())));
    }
    updatePixels();
}

void FigureExportDialog::pathEdited()
{
    // And the format follows a file name typed with a known extension.
    if (const auto typed = FigureExporter::formatOf(path()); typed && *typed != format()) {
        const QSignalBlocker block(m_ui->formatBox);
        setFormat(*typed);
        updatePixels();
    }
}

void FigureExportDialog::browse()
{
    const QString filter = format() == FigureFormat::Png ? tr("PNG images (*.png)")
        : format() == FigureFormat::Svg                  ? tr("SVG drawings (*.svg)")
                                                         : tr("PDF documents (*.pdf)");
    FileDialogs::askSave(this, tr("Export figure"), path(), filter, [self = QPointer(this)](const QString &chosen) {
        if (!self)
            return;
        // The save dialog asked before choosing an existing file: Export does not ask again.
        self->m_browsedPath = chosen;
        self->m_ui->pathEdit->setText(chosen);
        self->pathEdited();
    });
}

FigureSize FigureExportDialog::figureSize() const
{
    return m_grown ? *m_grown : askedSize();
}

bool FigureExportDialog::isMeasuring() const
{
    return m_measureTimer->isActive() || (m_measure && m_measure->isRunning());
}

// The page as the fields give it; a paper's column whose height the user left as the preset gives
// it is `posenc export --size`'s, which may grow (FigureSizes::page).
FigureSize FigureExportDialog::askedSize() const
{
    const QString named = FigureExportPresets::of(preset()).sizeName;
    if (!named.isEmpty() && !m_heightGiven)
        if (const auto page = FigureSizes::page(named, m_ui->dpiSpin->value());
            std::holds_alternative<FigureSize>(page))
            return std::get<FigureSize>(page);
    const double w = m_ui->widthSpin->value();
    const double h = m_ui->heightSpin->value();
    const double dpi = m_ui->dpiSpin->value();
    if (preset() == Preset::Window)
        return FigureSize::fromPixels(source().viewSize);
    if (m_unit == Unit::Px)
        return FigureSize::fromPixelsAtDpi(QSize(qRound(w), qRound(h)), dpi);
    const double inches = FigureExportPresets::inchesPer(m_unit, dpi);
    return FigureSize::fromInches(QSizeF(w * inches, h * inches), dpi);
}

FigureStyle FigureExportDialog::figureStyle() const
{
    FigureStyle style;
    style.fontPointSize = m_ui->fontSpin->value();
    const QString title = m_ui->titleEdit->text().trimmed();
    if (!title.isEmpty())
        style.title = title;
    return style;
}

// The page is weighed anew for the choices as they now are, once they stop changing.
void FigureExportDialog::choicesChanged()
{
    m_grown.reset();
    if (m_measure)
        m_measure->cancel();
    const FigureSize asked = askedSize();
    if (asked.mostHeight > asked.layout.height()) {
        // The height field tells the preset's height until the page is weighed.
        const QScopedValueRollback filling(m_filling, true);
        m_ui->heightSpin->setValue(FigureExportPresets::of(preset()).height);
        m_measureTimer->start();
    } else
        m_measureTimer->stop();
    updatePixels();
}

// The figure laid out on the heights `posenc export` weighs for a paper's column, off the GUI
// thread as an export is made (FigureExportJob without a path).
void FigureExportDialog::measure()
{
    const FigureSize asked = askedSize();
    if (asked.mostHeight <= asked.layout.height() || figureStyle().check()
        || !FigureRegistry::check(*source().figure, source().engine->params(), source().state).isEmpty())
        return;
    if (m_measure)
        m_measure->deleteLater();
    FigureExportTarget target {source().figure, source().engine, source().state, figureStyle(), asked, format(), {}};
    auto *job = new FigureExportJob(std::move(target), m_measureScheduler, this);
    m_measure = job;
    connect(job, &FigureExportJob::sized, this, &FigureExportDialog::measured);
    job->start();
}

// The page chosen for the figure's panels: the height field tells it, the export draws on it.
void FigureExportDialog::measured(const FigureSize &size, int panels, int leftOut)
{
    FigureSize grown = size;
    grown.mostHeight = 0; // chosen: the export draws on it as it is
    m_grown = grown;
    m_panels = panels;
    m_leftOut = leftOut;
    // The height grown to; a page that did not grow keeps the preset's height as it reads (6.00 cm, not
    // the 6.01 its 227 layout units make).
    if (m_unit == Unit::Cm && !m_heightGiven && size.layout.height() != askedSize().layout.height()) {
        const QScopedValueRollback filling(m_filling, true);
        m_ui->heightSpin->setValue(size.layout.height() / FigureSize::unitsPerInch() * FigureExportPresets::kCmPerInch);
    }
    updatePixels();
}

void FigureExportDialog::updatePixels()
{
    const FigureSize size = figureSize();
    const QSize pixels = size.pixels();
    QString text = tr("%1 × %2 px").arg(pixels.width()).arg(pixels.height());
    if (preset() == Preset::Window) {
        text += tr(", as the view shows it");
    } else if (size.dpi) {
        const double cm = FigureExportPresets::inchesPer(m_unit, *size.dpi) * FigureExportPresets::kCmPerInch;
        text += tr(" (%1 × %2 cm at %3 dpi)")
                    .arg(m_ui->widthSpin->value() * cm, 0, 'f', 2)
                    .arg(m_ui->heightSpin->value() * cm, 0, 'f', 2)
                    .arg(*size.dpi);
    }
    // What the page does for the figure's panels: grows for them, or leaves some out and says so.
    const FigureSize asked = askedSize();
    const double mostCm = asked.mostHeight / FigureSize::unitsPerInch() * FigureExportPresets::kCmPerInch;
    const double askedCm = asked.layout.height() / FigureSize::unitsPerInch() * FigureExportPresets::kCmPerInch;
    if (m_grown && m_leftOut > 0)
        text += tr("; %1 of its %2 panels left out for room, as no height up to %3 cm draws them all")
                    .arg(m_leftOut)
                    .arg(m_panels)
                    .arg(mostCm, 0, 'f', 0);
    else if (m_grown && m_grown->layout.height() > asked.layout.height())
        text += tr(", grown from %1 cm to draw its %2 panels").arg(askedCm, 0, 'f', 0).arg(m_panels);
    else if (!m_grown && asked.mostHeight > asked.layout.height())
        text += tr(", taller where its panels need it, up to %1 cm").arg(mostCm, 0, 'f', 0);
    if (format() != FigureFormat::Png)
        text += tr("; vector text and axes");
    if (const auto refused = FigureFile::sizeRefusal(size))
        text = *refused;
    m_ui->pixelsLabel->setText(text);
}

void FigureExportDialog::showMessage(const QString &text)
{
    m_ui->messageLabel->setText(text);
    m_ui->messageLabel->setVisible(!text.isEmpty());
}

void FigureExportDialog::save()
{
    if (isExporting())
        return;
    showMessage({});
    QString target = path();
    if (target.isEmpty()) {
        showMessage(tr("Choose the file to write."));
        return;
    }
    if (!FigureExporter::formatOf(target)) {
        target += u'.' + FigureExporter::extension(format());
        m_ui->pathEdit->setText(target);
    }
    const FigureFormat chosen = *FigureExporter::formatOf(target);
    if (const auto refused = FigureFile::sizeRefusal(figureSize())) {
        showMessage(*refused + tr(": choose a smaller size or dpi."));
        return;
    }
    if (const auto refused = figureStyle().check()) {
        showMessage(ParamLabels::text(*refused));
        return;
    }
    const QList<ParamError> problems
        = FigureRegistry::check(*source().figure, source().engine->params(), source().state);
    if (!problems.isEmpty()) {
        showMessage(ParamLabels::text(problems.front()));
        return;
    }
    const QString absolute = QFileInfo(target).absoluteFilePath();
    WriteDialogs::confirmOverwrite(this, absolute, target == m_browsedPath, [self = QPointer(this), absolute, chosen] {
        if (self)
            self->exportTo(absolute, chosen);
    });
}

bool FigureExportDialog::isExporting() const
{
    return m_job && m_job->isRunning();
}

void FigureExportDialog::exportTo(const QString &path, FigureFormat format)
{
    // The export weighs the page itself where it has not been weighed yet.
    m_measureTimer->stop();
    if (m_measure)
        m_measure->cancel();
    FigureExportTarget target {
        source().figure, source().engine, source().state, figureStyle(), figureSize(), format, path};
    auto *job = new FigureExportJob(std::move(target), m_scheduler, this);
    m_job = job;
    connect(job, &FigureExportJob::sized, this, &FigureExportDialog::measured);
    connect(job, &FigureExportJob::finished, this,
            [this, job, path](const std::optional<FigureError> &refused, bool encoded,
                              const std::optional<WriteError> &writeError) {
                job->deleteLater();
                exported(path, refused, encoded, writeError);
            });
    job->showProgress(this);
    job->start();
}

void FigureExportDialog::exported(const QString &path, const std::optional<FigureError> &refused, bool encoded,
                                  const std::optional<WriteError> &writeError)
{
    if (refused) {
        showMessage(
            refused->kind == FigureError::TooSmall
                ? tr("Nothing was written: %1. Choose a larger size or a smaller font size.").arg(refused->message)
                : tr("Nothing was written. %1").arg(refused->message));
        return;
    }
    if (!encoded) {
        showMessage(tr("The figure could not be encoded as %1.").arg(FigureExporter::extension(format()).toUpper()));
        return;
    }
    if (writeError) {
        WriteDialogs::showWriteError(this, *writeError);
        return;
    }
    if (m_settings) {
        Settings::ExportChoices choices;
        choices.directory = QFileInfo(path).absolutePath();
        choices.format = FigureExporter::extension(format());
        choices.preset = FigureExportPresets::of(preset()).key;
        choices.dpi = m_ui->dpiSpin->value();
        Settings::saveExportChoices(*m_settings, choices);
    }
    emit saved(path);
    accept();
}

void FigureExportDialog::reject()
{
    // Closing the dialog stops the figure it is making.
    if (m_job)
        m_job->cancel();
    if (m_measure)
        m_measure->cancel();
    QDialog::reject();
}

} // namespace posenc
