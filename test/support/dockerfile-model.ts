import { Copy, DockerfileParser, type Instruction, ModifiableInstruction } from 'dockerfile-ast';

/** One `COPY` of a Dockerfile stage. */
export interface CopyStep {
  /** The stage copied from (`--from=`), or undefined for the build context. */
  from?: string;
  sources: string[];
  destination: string;
}

/** One `RUN` of a Dockerfile stage. */
export interface RunStep {
  /** The command, as written after the flags. */
  command: string;
  /** The values of its `--mount` flags (`type=secret,id=…`). */
  mounts: string[];
}

/** One stage of a multi-stage Dockerfile, as far as the checks need it. */
export interface DockerStage {
  name?: string;
  /** The image it starts from, with build arguments substituted. */
  base: string;
  workdir?: string;
  env: Record<string, string>;
  copies: CopyStep[];
  runs: RunStep[];
  user?: string;
  entrypoint?: string[];
  cmd?: string[];
}

/** Reads a Dockerfile's stages with dockerfile-ast (global ARG defaults substituted in FROM). */
export function dockerStages(text: string): DockerStage[] {
  const dockerfile = DockerfileParser.parse(text);
  const args: Record<string, string> = {};
  const stages: DockerStage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    const words = instruction.getArguments().map((a) => a.getValue());
    const stage = stages.at(-1);
    if (keyword === 'ARG' && stage === undefined) {
      const [name, value = ''] = words[0]!.split('=');
      args[name!] = value;
    } else if (keyword === 'FROM') {
      const base = words[0]!.replace(/\$\{(\w+)\}/g, (_, name: string) => args[name] ?? '');
      stages.push({ name: words[2], base, env: {}, copies: [], runs: [] });
    } else if (stage !== undefined) {
      applyInstruction(stage, keyword, words, instruction);
    }
  }
  return stages;
}

function applyInstruction(
  stage: DockerStage,
  keyword: string,
  words: string[],
  instruction: Instruction,
): void {
  switch (keyword) {
    case 'WORKDIR':
      stage.workdir = words[0];
      break;
    case 'ENV':
      for (const word of words) {
        const [name, ...value] = word.split('=');
        stage.env[name!] = value.join('=');
      }
      break;
    case 'COPY': {
      const from = instruction instanceof Copy ? instruction.getFromFlag()?.getValue() : undefined;
      const paths = words.filter((w) => !w.startsWith('--'));
      stage.copies.push({ from: from ?? undefined, sources: paths.slice(0, -1), destination: paths.at(-1)! });
      break;
    }
    case 'RUN':
      stage.runs.push({
        command: instruction.getRawArgumentsContent() ?? '',
        mounts:
          instruction instanceof ModifiableInstruction
            ? instruction
                .getFlags()
                .filter((flag) => flag.getName() === 'mount')
                .map((flag) => flag.getValue() ?? '')
            : [],
      });
      break;
    case 'USER':
      stage.user = words[0];
      break;
    case 'ENTRYPOINT':
      stage.entrypoint = JSON.parse(instruction.getRawArgumentsContent()!) as string[];
      break;
    case 'CMD':
      stage.cmd = JSON.parse(instruction.getRawArgumentsContent()!) as string[];
      break;
    default:
      break;
  }
}
