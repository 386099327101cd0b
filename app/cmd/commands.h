/* The subcommands of jetdepth; each returns an exit code (JD_EXIT_*). */
#ifndef JD_APP_COMMANDS_H
#define JD_APP_COMMANDS_H

int jd_cmd_run(int argc, char **argv);
int jd_cmd_match(int argc, char **argv);
int jd_cmd_eval(int argc, char **argv);
int jd_cmd_bench(int argc, char **argv);
int jd_cmd_synth(int argc, char **argv);
int jd_cmd_board(int argc, char **argv);
int jd_cmd_cameras(int argc, char **argv);
int jd_cmd_tune(int argc, char **argv);
int jd_cmd_sense(int argc, char **argv);
int jd_cmd_calib(int argc, char **argv);

#endif
