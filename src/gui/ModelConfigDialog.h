#pragma once

#include "check/ModelConfigCheck.h"
#include "core/Params.h"

#include <QDialog>
#include <QList>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace posenc {

class ComputeScheduler;

// File > Open model config… (docs/ARCHITECTURE.md, Checking a model config): an HF config.json
// read and checked by ModelConfig::check on a worker, then shown as `posenc check --config`
// prints it (CheckReport::layerEntries): each layer type with its values and `posenc describe`'s
// numbers, its findings marked by severity in words and a symbol, and a button that sets the
// window's parameters to that layer type's encoding, as `--open` does (CheckReport::windowParams).
class ModelConfigDialog : public QDialog
{
    Q_OBJECT

public:
    using ApplyParams = std::function<void(const Params &)>;
    using CurrentParams = std::function<Params()>;

    // Starts reading and checking `path` at once.
    ModelConfigDialog(const QString &path, CurrentParams current, ApplyParams apply, QWidget *parent = nullptr);
    ~ModelConfigDialog() override;

    bool isChecking() const { return m_checking; }
    // The check once read; unset while reading, or when the file could not be read.
    const std::optional<ConfigCheck> &check() const { return m_check; }
    // Why the config was not checked (a read error, values no model could mean).
    QString problem() const { return m_problem; }
    // The summary line: "2 layer types; findings: 0 errors, 1 warning, 2 notes".
    QString summary() const;
    // The button of a layer type; null when the config has no such layer type.
    QPushButton *openButton(const QString &layerType) const;
    // What a layer type's panel shows, a line each (its entries, then its findings).
    QString layerText(const QString &layerType) const;

signals:
    // The config's layers, or why there are none, are shown.
    void checked();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void start();
    void showCheck(ConfigCheck check);
    void showProblem(const QString &problem);
    QWidget *layerPanel(const ConfigLayer &layer);
    QWidget *findingsPanel(const QList<ConfigFinding> &findings);
    void setParamsTo(const ConfigLayer &layer);

    QString m_path;
    CurrentParams m_current;
    ApplyParams m_apply;
    QLabel *m_headline;
    QLabel *m_summary;
    QScrollArea *m_scroll;
    QVBoxLayout *m_layers;
    bool m_checking = false;
    bool m_hasGeneralFindings = false;
    std::optional<ConfigCheck> m_check;
    QString m_problem;
    QList<std::pair<QString, QPushButton *>> m_buttons;
    QList<std::pair<QString, QString>> m_texts;

    std::unique_ptr<ComputeScheduler> m_jobs; // last: destroyed first
};

} // namespace posenc
